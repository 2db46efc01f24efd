package dev.sluice.catalog;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.sluice.config.Deployment;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The byte-pair encodings prompt tokens are counted with: OpenAI's {@code o200k_base} for
 * the models that use it (gpt-4o, gpt-4.1, gpt-4.5, gpt-5, the o-series), {@code cl100k_base}
 * for every other model. For a model that is not OpenAI's (Claude, Llama, Mistral,
 * DeepSeek, ...) the count is an approximation: its own tokenizer is not public or not
 * bundled, and may count the same text as more tokens than cl100k_base does. A prompt the
 * count puts just under such a model's window may still be refused by the provider; that
 * refusal is a context_window failure like any other.
 *
 * <p>Each encoding's table is loaded once per process, when first used, and shared by
 * every thread (jtokkit's encodings are thread-safe).
 */
public enum TokenEncoding {
    O200K_BASE,
    CL100K_BASE;

    /** Matched against a {@link ModelNames#normalise normalised} name: gpt-4.1 reads gpt-4-1. */
    private static final Pattern O200K_MODELS =
            Pattern.compile("^(gpt-4o|chatgpt-4o|gpt-4-1|gpt-4-5|gpt-5|gpt-oss|o\\d)(-|$)");

    /**
     * Models already matched: every call asks for its group's encoding, and normalising and
     * matching a name cost more than the rest of that question. Names can come from callers
     * (wildcard routes), so the memory stops growing at {@link #REMEMBERED_MODELS} names.
     */
    private static final ConcurrentHashMap<String, TokenEncoding> BY_MODEL = new ConcurrentHashMap<>();
    static final int REMEMBERED_MODELS = 4096;

    /** The encoding of a model, by the name after its provider prefix (e.g. {@code gpt-4o-mini}). */
    public static TokenEncoding forModel(String providerModel) {
        TokenEncoding known = BY_MODEL.get(providerModel);
        if (known != null) {
            return known;
        }
        TokenEncoding matched = O200K_MODELS.matcher(ModelNames.normalise(providerModel)).find() ? O200K_BASE : CL100K_BASE;
        if (BY_MODEL.size() < REMEMBERED_MODELS) {
            BY_MODEL.put(providerModel, matched);
        }
        return matched;
    }

    /**
     * The encoding to count a request for a group with: o200k_base when every deployment
     * uses it, else cl100k_base (the two differ by a few percent on English text).
     */
    public static TokenEncoding forDeployments(List<Deployment> deployments) {
        for (Deployment deployment : deployments) {
            if (forModel(deployment.params().providerModel()) != O200K_BASE) {
                return CL100K_BASE;
            }
        }
        return deployments.isEmpty() ? CL100K_BASE : O200K_BASE;
    }

    /** Loads this encoding's table now (it takes about half a second), so no request waits for it. */
    public void load() {
        encoding();
    }

    /** Tokens in {@code text}, special-token markers such as {@code <|endoftext|>} counted as plain text. */
    public int count(String text) {
        return encoding().countTokensOrdinary(text);
    }

    private Encoding encoding() {
        return switch (this) {
            case O200K_BASE -> O200k.ENCODING;
            case CL100K_BASE -> Cl100k.ENCODING;
        };
    }

    private static final class Registry {
        static final EncodingRegistry LAZY = Encodings.newLazyEncodingRegistry();
    }

    private static final class O200k {
        static final Encoding ENCODING = Registry.LAZY.getEncoding(EncodingType.O200K_BASE);
    }

    private static final class Cl100k {
        static final Encoding ENCODING = Registry.LAZY.getEncoding(EncodingType.CL100K_BASE);
    }
}
