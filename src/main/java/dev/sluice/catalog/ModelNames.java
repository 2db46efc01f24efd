package dev.sluice.catalog;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a deployment's model name is matched against the bundled table. A name is compared
 * by its last path segment ({@code anthropic/claude-3.5-sonnet} behind OpenRouter is
 * {@code claude-3.5-sonnet}), lower-cased, with a dot between two digits read as a dash, so
 * OpenRouter's {@code claude-3.5-sonnet} and Anthropic's {@code claude-3-5-sonnet} are one
 * name. A name without an entry of its own falls back to its family: the name without a
 * trailing date or {@code -latest} ({@code gpt-4o-2024-08-06} is {@code gpt-4o},
 * {@code claude-sonnet-4-20250514} is {@code claude-sonnet-4}, {@code mistral-large-2411}
 * is {@code mistral-large}).
 */
final class ModelNames {
    private static final Pattern DOT_BETWEEN_DIGITS = Pattern.compile("(?<=\\d)\\.(?=\\d)");
    /** 2024-08-06, 20241022, 0125 or 2411 (month and day, or year and month), latest. */
    private static final Pattern VERSION_SUFFIX = Pattern.compile("-(\\d{4}-\\d{2}-\\d{2}|\\d{8}|\\d{4}|latest)$");

    private ModelNames() {}

    static String normalise(String name) {
        String last = name.substring(name.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return DOT_BETWEEN_DIGITS.matcher(last).replaceAll("-");
    }

    /** The family of a normalised name, when it ends in a date or {@code -latest}. */
    static Optional<String> family(String normalised) {
        Matcher suffix = VERSION_SUFFIX.matcher(normalised);
        return suffix.find() && suffix.start() > 0 ? Optional.of(normalised.substring(0, suffix.start())) : Optional.empty();
    }
}
