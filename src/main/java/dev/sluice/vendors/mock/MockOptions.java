package dev.sluice.vendors.mock;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything that decides how one mock upstream behaves. Invalid values are refused at
 * construction with a message naming the field, the value and the rule.
 *
 * @param name              shown as {@code [name]} at the start of every reply and error
 *                          message, so a reader sees which upstream answered
 * @param mode              the initial mode; {@link MockUpstream#setMode} changes it later
 * @param host              the address to bind
 * @param port              the port to bind; 0 picks any free port
 * @param delay             how long {@link MockMode#SLOW} waits before answering
 * @param maxChars          the prompt size (characters of all message contents) above which
 *                          {@link MockMode#CONTEXT} refuses
 * @param triggerWord       the word (any case) that makes {@link MockMode#POLICY} refuse
 * @param retryAfterSeconds the {@code Retry-After} of {@link MockMode#RATELIMIT}
 * @param apiKey            the key {@link MockMode#AUTH} accepts, as {@code Authorization:
 *                          Bearer KEY} or Azure's {@code api-key: KEY}
 * @param times             the mode applies to this many model calls after it was set, then
 *                          the mock answers {@code ok}; 0 means always
 * @param api               the vendor API whose wire format the mock speaks
 */
public record MockOptions(
        String name,
        MockMode mode,
        String host,
        int port,
        Duration delay,
        int maxChars,
        String triggerWord,
        int retryAfterSeconds,
        String apiKey,
        int times,
        MockApi api) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final Duration DEFAULT_DELAY = Duration.ofMillis(2000);
    public static final int DEFAULT_MAX_CHARS = 1000;
    public static final String DEFAULT_TRIGGER_WORD = "forbidden";
    public static final int DEFAULT_RETRY_AFTER_SECONDS = 1;
    public static final String DEFAULT_API_KEY = "mock-key";

    public MockOptions {
        requireText("name", name);
        Objects.requireNonNull(mode, "mode");
        requireText("host", host);
        if (port < 0 || port > 65535) {
            throw invalid("port", port, "0..65535");
        }
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw invalid("delay", delay, ">= 0");
        }
        if (maxChars < 0) {
            throw invalid("maxChars", maxChars, ">= 0");
        }
        requireText("triggerWord", triggerWord);
        if (retryAfterSeconds < 0) {
            throw invalid("retryAfterSeconds", retryAfterSeconds, ">= 0");
        }
        requireText("apiKey", apiKey);
        if (times < 0) {
            throw invalid("times", times, ">= 0; 0 means always");
        }
        Objects.requireNonNull(api, "api");
    }

    /** A mock on 127.0.0.1, any free port, with the command line's defaults for the rest. */
    public static MockOptions defaults(String name, MockMode mode) {
        return new MockOptions(name, mode, DEFAULT_HOST, 0, DEFAULT_DELAY, DEFAULT_MAX_CHARS,
                DEFAULT_TRIGGER_WORD, DEFAULT_RETRY_AFTER_SECONDS, DEFAULT_API_KEY, 0, MockApi.OPENAI);
    }

    public MockOptions withName(String name) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withMode(MockMode mode) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withHost(String host) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withPort(int port) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withDelay(Duration delay) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withMaxChars(int maxChars) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withTriggerWord(String triggerWord) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withRetryAfterSeconds(int retryAfterSeconds) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withApiKey(String apiKey) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withTimes(int times) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    public MockOptions withApi(MockApi api) {
        return new MockOptions(name, mode, host, port, delay, maxChars, triggerWord, retryAfterSeconds, apiKey, times, api);
    }

    private static void requireText(String field, String value) {
        if (value == null || value.isBlank()) {
            throw invalid(field, value == null ? "null" : "'" + value + "'", "not blank");
        }
    }

    private static IllegalArgumentException invalid(String field, Object value, String rule) {
        return new IllegalArgumentException(field + ": " + value + " (expected: " + rule + ")");
    }
}
