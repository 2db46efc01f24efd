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
 * name. Bedrock's ids lose their inference-profile region and vendor
 * ({@code us.anthropic.claude-sonnet-4-20250514-v1:0} is {@code claude-sonnet-4-20250514-v1-0}),
 * and a {@code :} or Vertex AI's {@code @} reads as a dash. A name without an entry of its
 * own falls back to its family, dropping one trailing version at a time: a date or
 * {@code -latest} ({@code gpt-4o-2024-08-06} is {@code gpt-4o}, {@code mistral-large-2411}
 * is {@code mistral-large}), Bedrock's {@code -v2-0}, Vertex AI's {@code -v2}, Gemini's
 * {@code -001} and {@code -preview-05-06}.
 */
final class ModelNames {
    private static final Pattern DOT_BETWEEN_DIGITS = Pattern.compile("(?<=\\d)\\.(?=\\d)");
    /** 2024-08-06, 20241022, 0125 or 2411 (month and day, or year and month), latest. */
    private static final Pattern VERSION_SUFFIX = Pattern.compile(
            "-(\\d{4}-\\d{2}-\\d{2}|\\d{8}|\\d{4}|\\d{3}|latest|v\\d+(-\\d+)?|preview(-\\d{2}-\\d{2})?|exp(-\\d{4})?)$");
    /** A Bedrock inference profile's region and the model's vendor: {@code us.anthropic.}, {@code amazon.}. */
    private static final Pattern BEDROCK_PREFIX = Pattern.compile(
            "^((us|eu|apac|jp|au|ca|global|us-gov)\\.)?(anthropic|amazon|meta|cohere|mistral|ai21|deepseek|writer|qwen|openai)\\.");

    private ModelNames() {}

    static String normalise(String name) {
        String last = name.substring(name.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        String unprefixed = BEDROCK_PREFIX.matcher(last).replaceFirst("");
        return DOT_BETWEEN_DIGITS.matcher(unprefixed).replaceAll("-").replace(':', '-').replace('@', '-');
    }

    /** The next wider family of a normalised name, when it ends in a version: one version is dropped. */
    static Optional<String> family(String normalised) {
        Matcher suffix = VERSION_SUFFIX.matcher(normalised);
        return suffix.find() && suffix.start() > 0 ? Optional.of(normalised.substring(0, suffix.start())) : Optional.empty();
    }
}
