package dev.sluice.config;

import java.util.Map;

/**
 * How often a failed call is tried again on its group before it falls back.
 *
 * @param numRetries            {@code num_retries}: tries after the first
 * @param maxClientNumRetries   Sluice's own {@code max_client_num_retries}: the most
 *                              {@code num_retries} a caller may ask for; more is cut to it
 * @param retryPolicy           e.g. {@code RateLimitErrorRetries: 3}
 * @param modelGroupRetryPolicy group to its own retry policy
 */
public record RetrySettings(
        int numRetries,
        int maxClientNumRetries,
        Map<String, Integer> retryPolicy,
        Map<String, Map<String, Integer>> modelGroupRetryPolicy) {

    /** The same settings trying {@code retries} times after the first. */
    public RetrySettings withNumRetries(int retries) {
        return new RetrySettings(retries, maxClientNumRetries, retryPolicy, modelGroupRetryPolicy);
    }
}
