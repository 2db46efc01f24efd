package dev.sluice.accounts.spend;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * The tokens a call used: as its answer's {@code usage} said, or as Sluice counted them.
 * {@code promptTokens} counts every prompt token, those read from and written to the
 * vendor's prompt cache included; those two are also counted apart, for their own rates.
 *
 * @param cacheReadTokens  prompt tokens read from the cache ({@code prompt_tokens_details.cached_tokens})
 * @param cacheWriteTokens prompt tokens written to the cache ({@code cache_creation_input_tokens})
 */
public record TokenUsage(long promptTokens, long completionTokens, long cacheReadTokens, long cacheWriteTokens) {

    public static final TokenUsage NONE = new TokenUsage(0, 0);

    /** Tokens with none read from or written to a cache. */
    public TokenUsage(long promptTokens, long completionTokens) {
        this(promptTokens, completionTokens, 0, 0);
    }

    /**
     * The counts of a {@code usage} object, when it has at least {@code prompt_tokens} or
     * {@code completion_tokens} as whole numbers >= 0 (a missing one counts 0).
     */
    public static Optional<TokenUsage> of(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return Optional.empty();
        }
        JsonNode prompt = usage.get("prompt_tokens");
        JsonNode completion = usage.get("completion_tokens");
        boolean hasPrompt = count(prompt);
        boolean hasCompletion = count(completion);
        if (!hasPrompt && !hasCompletion) {
            return Optional.empty();
        }
        long promptCount = hasPrompt ? prompt.asLong() : 0;
        JsonNode cached = usage.path("prompt_tokens_details").get("cached_tokens");
        JsonNode written = usage.get("cache_creation_input_tokens");
        // Never more cached than prompted: a count that says otherwise is not believed.
        long read = count(cached) ? Math.min(cached.asLong(), promptCount) : 0;
        long write = count(written) ? Math.min(written.asLong(), promptCount - read) : 0;
        return Optional.of(new TokenUsage(promptCount, hasCompletion ? completion.asLong() : 0, read, write));
    }

    private static boolean count(JsonNode node) {
        return node != null && node.isIntegralNumber() && node.canConvertToLong() && node.asLong() >= 0;
    }
}
