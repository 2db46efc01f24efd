package dev.sluice.router;

/**
 * Why a fallback group was not tried. Each reason carries its name (logs, metrics, events)
 * and the words the caller's error message closes with: {@code Fallback to 'g' was skipped}
 * followed by {@link #sentence()}.
 */
public enum SkipReason {
    ALREADY_TRIED("already_tried", ": it was already tried for this request"),
    UNKNOWN_GROUP("unknown_group", ": there is no such model group"),
    MAX_FALLBACKS("max_fallbacks", ": max_fallbacks was reached"),
    DEADLINE("deadline", ": the request's timeout ran out"),
    /** The caller's key or team may not use the group. */
    NO_ACCESS("no_access", " because the caller has no access to it"),
    /** A budget of the caller does not cover the estimated call. */
    OVER_BUDGET("over_budget", " because the caller is over budget for it");

    private final String wireName;
    private final String sentence;

    SkipReason(String wireName, String sentence) {
        this.wireName = wireName;
        this.sentence = sentence;
    }

    /** The name in logs, metrics and events, e.g. {@code over_budget}. */
    public String wireName() {
        return wireName;
    }

    /** What follows "Fallback to 'g' was skipped" in the caller's error message. */
    public String sentence() {
        return sentence;
    }
}
