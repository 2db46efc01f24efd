package dev.sluice.router;

import java.util.Locale;

/**
 * Why a fallback group was not tried. Each reason carries its name (logs, metrics, events)
 * and the words the caller's error message closes with: {@code Fallback to 'g' was skipped}
 * followed by {@link #sentence()}.
 */
public enum SkipReason {
    ALREADY_TRIED(": it was already tried for this request"),
    UNKNOWN_GROUP(": there is no such model group"),
    MAX_FALLBACKS(": max_fallbacks was reached"),
    DEADLINE(": the request's timeout ran out"),
    /** The caller's key or team may not use the group. */
    NO_ACCESS(" because the caller has no access to it"),
    /** A budget of the caller does not cover the estimated call. */
    OVER_BUDGET(" because the caller is over budget for it"),
    /** With tag filtering on, none of its deployments may take the request's tags ({@link dev.sluice.router.precall.TagFilter}). */
    NO_TAG_MATCH(" because none of its deployments matches the request's tags");

    private final String sentence;

    SkipReason(String sentence) {
        this.sentence = sentence;
    }

    /** The name in logs, metrics and events: the constant's, in lower case, e.g. {@code over_budget}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What follows "Fallback to 'g' was skipped" in the caller's error message. */
    public String sentence() {
        return sentence;
    }
}
