package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long the spend log keeps one row per call, as LiteLLM names it: rows older than
 * {@code maximum_spend_logs_retention_period} (default 30 days) are deleted every
 * {@code maximum_spend_logs_retention_interval} (default a day). The daily rollups, which
 * reports read, are kept.
 *
 * @param retention how long a row is kept after its call started
 * @param interval  how often old rows are deleted
 */
public record SpendLogSettings(Duration retention, Duration interval) {
    public static final SpendLogSettings DEFAULTS = new SpendLogSettings(Duration.ofDays(30), Duration.ofDays(1));
    /** How a period is written: a whole number of seconds, minutes, hours or days, as in {@code 7d}. */
    static final String FORMAT = "a period such as 7d, 24h, 60m or 3600s";
    private static final Pattern PERIOD = Pattern.compile("([1-9][0-9]{0,8})([smhd])");

    public SpendLogSettings {
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(interval, "interval");
    }

    /** Whether {@code text} is a period {@link #period} reads. */
    static boolean isPeriod(String text) {
        return PERIOD.matcher(text.strip()).matches();
    }

    /** A period as written in the config: in the largest of days, hours, minutes and seconds that divides it. */
    static String text(Duration period) {
        long seconds = period.toSeconds();
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds % 3_600 == 0) {
            return seconds / 3_600 + "h";
        }
        return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }

    /** {@code 7d}, {@code 24h}, {@code 60m}, {@code 3600s} as a duration; call {@link #isPeriod} first. */
    static Duration period(String text) {
        Matcher matcher = PERIOD.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("\"" + text + "\" (expected: " + FORMAT + ")");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }
}
