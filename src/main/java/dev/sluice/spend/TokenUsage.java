package dev.sluice.spend;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** The tokens a call used: as its answer's {@code usage} said, or as Sluice counted them. */
public record TokenUsage(long promptTokens, long completionTokens) {

    public static final TokenUsage NONE = new TokenUsage(0, 0);

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
        return Optional.of(new TokenUsage(hasPrompt ? prompt.asLong() : 0, hasCompletion ? completion.asLong() : 0));
    }

    private static boolean count(JsonNode node) {
        return node != null && node.isIntegralNumber() && node.canConvertToLong() && node.asLong() >= 0;
    }
}
