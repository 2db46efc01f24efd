package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The scalar rules of the vocabulary. A value of the wrong type is told the whole rule
 * ({@code "abc" (expected: an integer >= 0)}); one of the right type outside its range just
 * the bound ({@code -1 (expected: >= 0)}).
 */
final class Scalars {
    /** The longest duration that still fits in a long count of nanoseconds. */
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000_000L);
    private static final BigDecimal MAX_INT = BigDecimal.valueOf(Integer.MAX_VALUE);

    private Scalars() {}

    /** A whole number from 0 to {@link Integer#MAX_VALUE}. */
    static Optional<Integer> count(Written written) {
        return written.scalar().flatMap(scalar -> {
            BigDecimal number = number(scalar.value(), written.numbersAsText());
            if (number == null || number.stripTrailingZeros().scale() > 0) {
                written.problem(scalar.shown(), "an integer >= 0");
            } else if (number.signum() < 0) {
                written.problem(scalar.shown(), ">= 0");
            } else if (number.compareTo(MAX_INT) > 0) {
                written.problem(scalar.shown(), "<= " + Integer.MAX_VALUE);
            } else {
                return Optional.of(number.intValueExact());
            }
            return Optional.empty();
        });
    }

    /** Seconds as LiteLLM writes them, fractions allowed: {@code timeout: 0.5}; > 0 when {@code positive}, else >= 0. */
    static Optional<Duration> seconds(Written written, boolean positive) {
        String typeRule = positive ? "a number of seconds > 0" : "a number of seconds >= 0";
        return bounded(written, typeRule, positive, MAX_SECONDS).map(seconds -> {
            long whole = seconds.longValue();
            // Rounding up keeps a tiny positive timeout from becoming zero.
            long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).setScale(0, RoundingMode.UP).longValue();
            return Duration.ofSeconds(whole, nanos);
        });
    }

    /** A number from 0 to {@code max}. */
    static Optional<Double> between0And(Written written, BigDecimal max, String rule) {
        return bounded(written, rule, false, max).map(BigDecimal::doubleValue);
    }

    /**
     * {@code true} or {@code false}; as text too (any case) where the source allows numbers as
     * text, since a variable is always text.
     */
    static Optional<Boolean> flag(Written written) {
        return written.scalar().flatMap(scalar -> {
            JsonNode value = scalar.value();
            if (value.isBoolean()) {
                return Optional.of(value.booleanValue());
            }
            String text = value.isTextual() && written.numbersAsText() ? value.textValue().strip().toLowerCase(Locale.ROOT) : "";
            if (text.equals("true") || text.equals("false")) {
                return Optional.of(text.equals("true"));
            }
            written.problem(scalar.shown(), "true or false");
            return Optional.empty();
        });
    }

    static Optional<String> oneOf(Written written, List<String> allowed) {
        return written.scalar().flatMap(scalar -> {
            if (scalar.value().isTextual() && allowed.contains(scalar.value().textValue())) {
                return Optional.of(scalar.value().textValue());
            }
            written.problem(scalar.shownText(), "one of " + String.join(", ", allowed));
            return Optional.empty();
        });
    }

    /** Non-blank text without control characters that also passes {@code rule}, told as {@code ruleText}. */
    static Optional<String> text(Written written, Predicate<String> rule, Supplier<String> ruleText) {
        return written.scalar().flatMap(scalar -> {
            JsonNode json = scalar.value();
            boolean text = json.isTextual() || json.isNumber() && written.numbersAsText();
            if (!text || json.asText().isBlank()) {
                written.problem(scalar.shown(), "a non-empty string");
                return Optional.empty();
            }
            if (json.asText().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                written.problem(scalar.shown(), "text without control characters such as a line break");
                return Optional.empty();
            }
            if (!rule.test(json.asText())) {
                written.problem(scalar.shownText(), ruleText.get());
                return Optional.empty();
            }
            return Optional.of(json.asText());
        });
    }

    /** A number >= 0 (> 0 when {@code positive}) and at most {@code max}. */
    private static Optional<BigDecimal> bounded(Written written, String typeRule, boolean positive, BigDecimal max) {
        return written.scalar().flatMap(scalar -> {
            BigDecimal number = number(scalar.value(), written.numbersAsText());
            if (number == null) {
                written.problem(scalar.shown(), typeRule);
            } else if (positive ? number.signum() <= 0 : number.signum() < 0) {
                written.problem(scalar.shown(), positive ? "> 0" : ">= 0");
            } else if (number.compareTo(max) > 0) {
                written.problem(scalar.shown(), "<= " + max.toPlainString());
            } else {
                return Optional.of(number);
            }
            return Optional.empty();
        });
    }

    /** A finite number, or text holding one where the source allows it; null for anything else. */
    private static BigDecimal number(JsonNode value, boolean numbersAsText) {
        if (value.isNumber()) {
            boolean finite = value.isBigDecimal() || value.isIntegralNumber() || Double.isFinite(value.doubleValue());
            return finite ? value.decimalValue() : null;
        }
        if (value.isTextual() && numbersAsText) {
            try {
                return new BigDecimal(value.textValue().strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
