package dev.sluice.config;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One entry of the top-level {@code guardrails} list: a content filter that refuses a call
 * whose prompt (or answer) holds a blocked word or matches a pattern.
 *
 * @param name         {@code guardrail_name}, unique in the file; deployments and callers name it
 * @param type         {@code litellm_params.guardrail}; always {@link #CONTENT_FILTER} today
 * @param modes        when it runs; never empty
 * @param defaultOn    {@code default_on}: it runs on every call, not only where it is named
 * @param blockedWords keywords as written, matched without regard to case on word boundaries
 * @param patterns     regular expressions, each matched as written
 */
public record GuardrailConfig(
        String name,
        String type,
        Set<GuardrailMode> modes,
        boolean defaultOn,
        List<String> blockedWords,
        List<ContentPattern> patterns) {

    /** LiteLLM's name for its built-in keyword and regex filter, which Sluice runs itself. */
    public static final String CONTENT_FILTER = "litellm_content_filter";

    public GuardrailConfig {
        modes = Collections.unmodifiableSet(modes.isEmpty() ? EnumSet.noneOf(GuardrailMode.class) : EnumSet.copyOf(modes));
        blockedWords = List.copyOf(blockedWords);
        patterns = List.copyOf(patterns);
    }

    public boolean runsOn(GuardrailMode mode) {
        return modes.contains(mode);
    }

    /**
     * One entry of {@code patterns}.
     *
     * @param name        what a refusal calls it: {@code name}, else the prebuilt's
     *                    {@code pattern_name}, else its place, e.g. {@code patterns[1]}
     * @param patternType {@code regex} or {@code prebuilt}
     * @param regex       the expression in {@link java.util.regex.Pattern} syntax: as written
     *                    for {@code regex}, Sluice's own for {@code prebuilt}
     */
    public record ContentPattern(String name, String patternType, String regex) {
        /** The expression compiled; it is known to compile, because the config was checked. */
        public Pattern compile() {
            return Pattern.compile(regex);
        }
    }
}
