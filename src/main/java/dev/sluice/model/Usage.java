package dev.sluice.model;

/**
 * The tokens a call used, counted as OpenAI counts them: {@code promptTokens} includes the
 * cached and cache-written ones, {@code completionTokens} includes the reasoning ones. An
 * adapter for a vendor that counts them apart (Anthropic's {@code input_tokens} leaves out
 * cache reads and writes) adds them up. A count the vendor did not report is 0.
 *
 * @param promptTokens        every token of the prompt
 * @param completionTokens    every token the model wrote, reasoning included
 * @param cachedPromptTokens  prompt tokens read from the vendor's prompt cache
 * @param cacheCreationTokens prompt tokens written to the vendor's prompt cache
 * @param reasoningTokens     completion tokens spent on reasoning
 */
public record Usage(long promptTokens, long completionTokens, long cachedPromptTokens, long cacheCreationTokens,
        long reasoningTokens) {
    /** No tokens reported. */
    public static final Usage NONE = new Usage(0, 0, 0, 0, 0);

    public Usage {
        Checks.notNegative(promptTokens, "promptTokens");
        Checks.notNegative(completionTokens, "completionTokens");
        Checks.notNegative(cachedPromptTokens, "cachedPromptTokens");
        Checks.notNegative(cacheCreationTokens, "cacheCreationTokens");
        Checks.notNegative(reasoningTokens, "reasoningTokens");
    }

    public long totalTokens() {
        return promptTokens + completionTokens;
    }
}
