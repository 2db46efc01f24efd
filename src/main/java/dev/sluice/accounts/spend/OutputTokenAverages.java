package dev.sluice.accounts.spend;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What answers of each model group really run to: a running average of the output
 * (completion) tokens of the calls it answered, which sizes the budget hold of a call that
 * sets no {@code max_tokens} ({@link FallbackEstimate}).
 *
 * <h2>Design notes</h2>
 * <b>Why an average and not the model's largest answer.</b> A hold is what a call keeps of a
 * budget while it runs, so that calls side by side cannot all pass a budget only one fits in.
 * Held at the most a model may write, a call of a few cents held half a dollar, and a small
 * budget refused most of its parallel calls while nearly all of it was unspent. Held at what
 * calls of the group really write, the holds add up to about what the calls will cost, and a
 * budget is still overrun by at most about one call.
 *
 * <p><b>Before there is an average</b> a group's calls are taken to write
 * {@link #DEFAULT_OUTPUT_TOKENS} tokens: a typical answer, not the model's limit.
 *
 * <p><b>The average</b> is the mean of a group's answers until it has seen {@link #WINDOW} of
 * them, then an exponentially weighted one that gives each new answer a {@code 1/WINDOW}
 * share: it follows a group whose answers grow or shrink, and one long answer moves it by a
 * bounded step.
 *
 * <p><b>Bounded in memory.</b> One number and a count per group, for at most
 * {@link #MAX_GROUPS} groups (they come from the config, and every served group's name is one
 * of its names); a group past that bound is sized by the default. Each replica keeps its own.
 * Thread-safe.
 */
public final class OutputTokenAverages {

    /** The output tokens a call is taken to write before its group has answered one. */
    public static final long DEFAULT_OUTPUT_TOKENS = 256;
    /** How many answers the average spans, about. */
    static final int WINDOW = 32;
    /** Groups averaged at most. */
    static final int MAX_GROUPS = 4096;

    /** A group's average and how many answers made it, up to {@link #WINDOW}. */
    private record Average(double tokens, int answers) {
        Average with(long output) {
            int n = Math.min(answers + 1, WINDOW);
            return new Average(tokens + (output - tokens) / n, n);
        }
    }

    private final Map<String, Average> groups = new ConcurrentHashMap<>();

    /** Counts an answer of {@code group} that wrote {@code outputTokens}. */
    public void answered(String group, long outputTokens) {
        if (outputTokens < 0) {
            throw new IllegalArgumentException("outputTokens: " + outputTokens + " (expected: >= 0)");
        }
        if (groups.size() >= MAX_GROUPS && !groups.containsKey(group)) {
            return;
        }
        groups.compute(group, (name, average) -> (average == null ? new Average(0, 0) : average).with(outputTokens));
    }

    /**
     * The output tokens a call of {@code group} is expected to write: the group's average,
     * to the nearest token, else {@link #DEFAULT_OUTPUT_TOKENS}.
     */
    public long expected(String group) {
        Average average = groups.get(group);
        return average == null ? DEFAULT_OUTPUT_TOKENS : Math.round(average.tokens());
    }

    /** Groups averaged now. */
    int groups() {
        return groups.size();
    }
}
