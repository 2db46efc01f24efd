package dev.sluice.time;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How often a budget's spend starts again from 0: LiteLLM's {@code budget_duration} (and the
 * {@code time_period} of a {@code model_max_budget} entry), written as a whole number and a
 * unit: {@code 30s}, {@code 30m}, {@code 30h}, {@code 30d}, {@code 2w}, {@code 1mo}.
 *
 * <h2>When a period ends</h2>
 * As LiteLLM documents its reset times, days, weeks and months end on calendar boundaries in
 * the budget time zone (LiteLLM's {@code litellm_settings.timezone}, UTC unless set), and
 * shorter units roll forward from the start:
 * <ul>
 *   <li>{@code 1d}: at the next midnight; {@code 7d} and {@code 1w}: at the next Monday's
 *       midnight; {@code 30d}: at midnight on the 1st of the next month;
 *   <li>any other {@code Nd} (and {@code Nw}, which is {@code 7N} days): at the midnight that
 *       starts the day N days after the start's day;
 *   <li>{@code Nmo}: at midnight on the 1st of the month N months after the start's month
 *       (LiteLLM accepts only {@code 1mo} here; more months is the same rule carried on);
 *   <li>{@code Ns}, {@code Nm}, {@code Nh}: exactly N units after the start, except that a
 *       whole number of days written in hours ({@code 24h}, {@code 48h}) is those days,
 *       so {@code 24h} resets at midnight like {@code 1d}, as LiteLLM's table says.
 * </ul>
 * A reset instant belongs to the new period: a spend at exactly the reset counts towards the
 * period that starts there.
 *
 * <p>Immutable and thread-safe.
 *
 * @param amount how many units, from 1 to {@value #LARGEST_AMOUNT}
 */
public record BudgetDuration(long amount, Unit unit) {

    /** The largest amount accepted: large enough for any real budget, small enough that no reset overflows. */
    public static final long LARGEST_AMOUNT = 999_999_999L;

    /** The forms a duration may take, as error messages state them. */
    public static final String EXPECTED = "a whole number from 1 to " + LARGEST_AMOUNT
            + " followed by s, m, h, d, w or mo, e.g. 30s, 30m, 30h, 30d, 1mo";

    private static final Pattern FORM = Pattern.compile("(\\d{1,9})(mo|s|m|h|d|w)");
    private static final long HOURS_PER_DAY = 24;

    /** The units LiteLLM's durations are written in. */
    public enum Unit {
        SECONDS("s"),
        MINUTES("m"),
        HOURS("h"),
        DAYS("d"),
        WEEKS("w"),
        MONTHS("mo");

        private final String suffix;

        Unit(String suffix) {
            this.suffix = suffix;
        }

        public String suffix() {
            return suffix;
        }

        static Unit ofSuffix(String suffix) {
            for (Unit unit : values()) {
                if (unit.suffix.equals(suffix)) {
                    return unit;
                }
            }
            throw new IllegalArgumentException(suffix);
        }
    }

    public BudgetDuration {
        Objects.requireNonNull(unit, "unit");
        if (amount < 1 || amount > LARGEST_AMOUNT) {
            throw new IllegalArgumentException("budget_duration: " + amount + unit.suffix + " (expected: " + EXPECTED + ")");
        }
    }

    /** Reads a {@code budget_duration}; see {@link #parse(String, String)}. */
    public static BudgetDuration parse(String value) {
        return parse("budget_duration", value);
    }

    /**
     * Reads a duration written the way LiteLLM writes them. Surrounding spaces are ignored;
     * anything else that is not exactly {@code <n><unit>} is refused with a message naming
     * {@code field}, the value and the forms accepted, for example
     * {@code budget_duration: "30x" (expected: a whole number from 1 to 999999999 followed by s, m, h, d, w or mo, ...)}.
     */
    public static BudgetDuration parse(String field, String value) {
        String written = value == null ? "" : value.strip();
        Matcher form = FORM.matcher(written);
        if (!form.matches()) {
            throw new IllegalArgumentException(field + ": " + quoted(value) + " (expected: " + EXPECTED + ")");
        }
        long amount = Long.parseLong(form.group(1));
        if (amount < 1) {
            throw new IllegalArgumentException(field + ": " + quoted(value) + " (expected: " + EXPECTED + ")");
        }
        return new BudgetDuration(amount, Unit.ofSuffix(form.group(2)));
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }

    /** When the period that starts at {@code start} ends, with calendar boundaries in UTC. */
    public Instant nextReset(Instant start) {
        return nextReset(start, ZoneOffset.UTC);
    }

    /**
     * When the period that starts at {@code start} ends: always after {@code start}, by the
     * rules in the class comment, with calendar boundaries in {@code zone}.
     */
    public Instant nextReset(Instant start, ZoneId zone) {
        return switch (unit) {
            case SECONDS -> start.plusSeconds(amount);
            case MINUTES -> start.plus(Duration.ofMinutes(amount));
            case HOURS -> amount % HOURS_PER_DAY == 0
                    ? afterDays(start, amount / HOURS_PER_DAY, zone)
                    : start.plus(Duration.ofHours(amount));
            case DAYS -> afterDays(start, amount, zone);
            case WEEKS -> afterDays(start, amount * 7, zone);
            case MONTHS -> day(start, zone).withDayOfMonth(1).plusMonths(amount).atStartOfDay(zone).toInstant();
        };
    }

    /**
     * The end of the period that holds {@code now}, for a budget whose schedule had a reset
     * due at {@code scheduledReset}: {@code scheduledReset} itself while it is still ahead,
     * else the first reset after {@code now} reached by stepping period by period from it.
     * Stepping keeps an {@code Nd} or {@code Nh} budget on its own cadence however long it
     * went unused.
     */
    public Instant currentPeriodEnd(Instant scheduledReset, Instant now, ZoneId zone) {
        if (scheduledReset.isAfter(now)) {
            return scheduledReset;
        }
        if (rolls()) {
            Duration period = Duration.between(scheduledReset, nextReset(scheduledReset, zone));
            long whole = Duration.between(scheduledReset, now).dividedBy(period);
            return scheduledReset.plus(period.multipliedBy(whole + 1));
        }
        Instant end = scheduledReset;
        while (!end.isAfter(now)) {
            end = nextReset(end, zone);
        }
        return end;
    }

    /**
     * The start of the period that holds {@code now} (at or after {@code scheduledReset}),
     * for the schedule {@link #currentPeriodEnd} steps along: the last reset at or before
     * {@code now}.
     */
    public Instant currentPeriodStart(Instant scheduledReset, Instant now, ZoneId zone) {
        if (scheduledReset.isAfter(now)) {
            throw new IllegalArgumentException("scheduledReset " + scheduledReset + " is after now, " + now);
        }
        if (rolls()) {
            Duration period = Duration.between(scheduledReset, nextReset(scheduledReset, zone));
            return scheduledReset.plus(period.multipliedBy(Duration.between(scheduledReset, now).dividedBy(period)));
        }
        Instant start = scheduledReset;
        for (Instant next = nextReset(start, zone); !next.isAfter(now); next = nextReset(next, zone)) {
            start = next;
        }
        return start;
    }

    /** Whether periods are a fixed length counted from the start, rather than calendar days. */
    private boolean rolls() {
        return unit == Unit.SECONDS || unit == Unit.MINUTES || (unit == Unit.HOURS && amount % HOURS_PER_DAY != 0);
    }

    private static Instant afterDays(Instant start, long days, ZoneId zone) {
        LocalDate today = day(start, zone);
        LocalDate end = switch ((int) Math.min(days, Integer.MAX_VALUE)) {
            case 7 -> today.with(TemporalAdjusters.next(DayOfWeek.MONDAY));
            case 30 -> today.withDayOfMonth(1).plusMonths(1);
            default -> today.plusDays(days);
        };
        return end.atStartOfDay(zone).toInstant();
    }

    private static LocalDate day(Instant at, ZoneId zone) {
        return at.atZone(zone).toLocalDate();
    }

    /** As written in config: {@code 30d}. */
    @Override
    public String toString() {
        return amount + unit.suffix;
    }
}
