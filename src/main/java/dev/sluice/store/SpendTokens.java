package dev.sluice.store;

/**
 * The tokens one call used, as its spend row counts them.
 *
 * @param promptTokens     tokens of the request
 * @param completionTokens tokens of the answer
 * @param totalTokens      as the provider reported it; prompt plus completion when it did not
 * @param cachedTokens     the prompt tokens read from the provider's prompt cache (part of {@code promptTokens})
 */
public record SpendTokens(long promptTokens, long completionTokens, long totalTokens, long cachedTokens) {

    /** A call that used no tokens. */
    public static final SpendTokens NONE = new SpendTokens(0, 0, 0, 0);

    public SpendTokens {
        nonNegative("prompt_tokens", promptTokens);
        nonNegative("completion_tokens", completionTokens);
        nonNegative("total_tokens", totalTokens);
        nonNegative("cached_tokens", cachedTokens);
    }

    private static void nonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: >= 0)");
        }
    }
}
