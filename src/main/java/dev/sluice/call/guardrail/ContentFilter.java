package dev.sluice.call.guardrail;

import dev.sluice.config.GuardrailConfig;
import dev.sluice.config.GuardrailMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One configured {@code litellm_content_filter}, compiled once: all its blocked words as a
 * single pattern, and each of its regular expressions as written.
 *
 * <p>A blocked word matches regardless of case, and only as a whole word: {@code pass}
 * does not match in {@code password}. "Whole" is judged at each end that is a letter, digit
 * or underscore, so {@code c++} still matches in {@code c++.} and {@code -secret} in
 * {@code my-secret}. Spaces inside a keyword match any run of white space, so
 * {@code project apollo} matches across a line break. The regular expressions are kept
 * apart rather than joined, so their own groups and back references mean what they say.
 */
final class ContentFilter {
    /** Characters that make up a word, for the boundary on either side of a keyword. */
    private static final String WORD_CHAR = "[\\p{L}\\p{M}\\p{N}_]";
    private static final Pattern IS_WORD_CHAR = Pattern.compile(WORD_CHAR);
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private final GuardrailConfig config;
    /** Group {@code i + 1} is {@code keywords.get(i)}; null when there are no keywords. */
    private final Pattern keywordPattern;
    private final List<String> keywords;
    private final List<Pattern> patterns;

    ContentFilter(GuardrailConfig config) {
        this.config = config;
        this.keywords = config.blockedWords().stream()
                .sorted(Comparator.comparingInt(String::length).reversed()) // the longest of overlapping words is named
                .toList();
        this.keywordPattern = keywords.isEmpty() ? null : keywordPattern(keywords);
        this.patterns = config.patterns().stream().map(GuardrailConfig.ContentPattern::compile).toList();
    }

    String name() {
        return config.name();
    }

    boolean defaultOn() {
        return config.defaultOn();
    }

    boolean runsOn(GuardrailMode mode) {
        return config.runsOn(mode);
    }

    /** Why {@code text} is refused, or empty when nothing in it matches. */
    Optional<String> match(CharSequence text) {
        if (keywordPattern != null) {
            Matcher matcher = keywordPattern.matcher(text);
            if (matcher.find()) {
                return Optional.of("blocked word '" + matchedKeyword(matcher) + "'");
            }
        }
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).matcher(text).find()) {
                return Optional.of("pattern '" + config.patterns().get(i).name() + "'");
            }
        }
        return Optional.empty();
    }

    private String matchedKeyword(Matcher matcher) {
        for (int group = 1; group <= keywords.size(); group++) {
            if (matcher.start(group) >= 0) {
                return keywords.get(group - 1);
            }
        }
        throw new IllegalStateException("a keyword matched without its group");
    }

    private static Pattern keywordPattern(List<String> keywords) {
        List<String> alternatives = new ArrayList<>();
        for (String keyword : keywords) {
            alternatives.add("(" + wordRegex(keyword) + ")");
        }
        return Pattern.compile(String.join("|", alternatives), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    private static String wordRegex(String keyword) {
        StringBuilder regex = new StringBuilder();
        if (isWordChar(keyword.codePointAt(0))) {
            regex.append("(?<!").append(WORD_CHAR).append(')');
        }
        String[] parts = SPACES.split(keyword);
        for (int i = 0; i < parts.length; i++) {
            regex.append(i == 0 ? "" : "\\s+").append(Pattern.quote(parts[i]));
        }
        if (isWordChar(keyword.codePointBefore(keyword.length()))) {
            regex.append("(?!").append(WORD_CHAR).append(')');
        }
        return regex.toString();
    }

    private static boolean isWordChar(int codePoint) {
        return IS_WORD_CHAR.matcher(Character.toString(codePoint)).matches();
    }
}
