package dev.sluice.failure;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How long an upstream asked to be left alone, read from its {@code retry-after-ms} header
 * (milliseconds, which OpenAI and Azure OpenAI send) or else its {@code Retry-After} header
 * (RFC 9110: delta-seconds, or an HTTP-date in RFC 1123 form).
 *
 * <p>The value is not capped here: how long a caller is willing to wait is the caller's
 * policy. It is only kept representable: a wait longer than a {@link Duration} can express
 * in nanoseconds (about 292 years) is treated as malformed.
 */
public final class RetryAfter {

    /** A non-negative decimal number without sign or exponent: {@code 2}, {@code 0.5}, {@code 1500}. */
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");

    private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);

    private RetryAfter() {}

    /**
     * The wait the two headers ask for, or empty when neither holds a usable value.
     * {@code retry-after-ms} wins when it is well formed; when it is absent or malformed,
     * {@code Retry-After} is read. A date that has already passed asks for no wait
     * ({@link Duration#ZERO}); negative numbers and anything else unparseable ask for nothing.
     *
     * @param retryAfterMs the {@code retry-after-ms} header, or null when absent
     * @param retryAfter   the {@code Retry-After} header, or null when absent
     * @param now          the instant an HTTP-date is measured from
     */
    public static Optional<Duration> parse(String retryAfterMs, String retryAfter, Instant now) {
        Optional<Duration> millis = number(retryAfterMs, 6);
        if (millis.isPresent()) {
            return millis;
        }
        if (retryAfter == null) {
            return Optional.empty();
        }
        Optional<Duration> seconds = number(retryAfter, 9);
        return seconds.isPresent() ? seconds : httpDate(retryAfter.strip(), now);
    }

    /** A decimal count of units, where one unit is 10^{@code nanosPerUnitExponent} nanoseconds. */
    private static Optional<Duration> number(String value, int nanosPerUnitExponent) {
        if (value == null) {
            return Optional.empty();
        }
        String text = value.strip();
        if (!NUMBER.matcher(text).matches()) {
            return Optional.empty();
        }
        // Round up: waking a moment late is harmless, a moment early earns another 429.
        BigDecimal nanos = new BigDecimal(text).movePointRight(nanosPerUnitExponent).setScale(0, RoundingMode.CEILING);
        if (nanos.compareTo(MAX_NANOS) > 0) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(nanos.longValueExact()));
    }

    private static Optional<Duration> httpDate(String text, Instant now) {
        Instant at;
        try {
            at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
        if (!at.isAfter(now)) {
            return Optional.of(Duration.ZERO);
        }
        Duration wait = Duration.between(now, at);
        // Keeps the same bound as the numeric forms so every value converts to nanoseconds.
        return wait.compareTo(Duration.ofNanos(Long.MAX_VALUE)) > 0 ? Optional.empty() : Optional.of(wait);
    }
}
