package dev.sluice.model;

import java.util.List;

/**
 * The sampling settings every vendor shares. A null setting was not given, and the vendor's
 * default applies.
 *
 * @param maxTokens     the most tokens the model may write (OpenAI's {@code max_completion_tokens}, Anthropic's {@code max_tokens})
 * @param temperature   sampling temperature
 * @param topP          nucleus sampling mass
 * @param stopSequences sequences that end the answer when the model writes one; empty when none
 */
public record Sampling(Integer maxTokens, Double temperature, Double topP, List<String> stopSequences) {
    /** No settings given: every vendor default applies. */
    public static final Sampling DEFAULTS = new Sampling(null, null, null, List.of());

    public Sampling {
        if (maxTokens != null) {
            Checks.notNegative(maxTokens, "maxTokens");
        }
        notNegative(temperature, "temperature");
        notNegative(topP, "topP");
        stopSequences = Checks.listOf(stopSequences, "stopSequences");
    }

    private static void notNegative(Double value, String field) {
        if (value != null && !(value >= 0)) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: a number >= 0)");
        }
    }
}
