package dev.sluice.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.time.BudgetDuration.Unit;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BudgetDurationTest {
    static final Duration MS = Duration.ofMillis(1);

    static Instant at(String utc) {
        return Instant.parse(utc);
    }

    // --- reading -----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            30s,  30, SECONDS
            30m,  30, MINUTES
            30h,  30, HOURS
            30d,  30, DAYS
            2w,    2, WEEKS
            1mo,   1, MONTHS
            ' 7d ', 7, DAYS
            0030d, 30, DAYS
            999999999s, 999999999, SECONDS
            """)
    void readsLiteLlmsForms(String written, long amount, Unit unit) {
        assertThat(BudgetDuration.parse(written)).isEqualTo(new BudgetDuration(amount, unit));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"30s", "30m", "30h", "30d", "2w", "1mo"})
    void writesItselfAsRead(String written) {
        assertThat(BudgetDuration.parse(written)).hasToString(written);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "30", "d", "30x", "30D", "30 d", "1.5h", "-1d", "0d", "0mo", "1y", "30dd", "1000000000s", "monthly"})
    void refusesAnythingElseNamingTheFieldTheValueAndTheForms(String written) {
        assertThatThrownBy(() -> BudgetDuration.parse(written))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("budget_duration: \"" + written + "\" (expected: a whole number from 1 to 999999999"
                        + " followed by s, m, h, d, w or mo, e.g. 30s, 30m, 30h, 30d, 1mo)");
    }

    @Test
    void namesTheFieldItWasGiven() {
        assertThatThrownBy(() -> BudgetDuration.parse("model_max_budget.gpt-4o.time_period", "1y"))
                .hasMessageStartingWith("model_max_budget.gpt-4o.time_period: \"1y\" (expected: ");
    }

    @Test
    void refusesNothingAtAll() {
        assertThatThrownBy(() -> BudgetDuration.parse(null)).hasMessageStartingWith("budget_duration: null (expected: ");
    }

    // --- seconds, minutes, hours: N units after the start ------------------------------------------

    @ParameterizedTest(name = "{0} from {1}")
    @CsvSource(textBlock = """
            30s, 2025-01-01T10:00:00.250Z, 2025-01-01T10:00:30.250Z
            30m, 2025-01-01T10:07:00Z,     2025-01-01T10:37:00Z
            30h, 2025-01-01T10:07:00Z,     2025-01-02T16:07:00Z
            1h,  2025-01-01T23:30:00Z,     2025-01-02T00:30:00Z
            """)
    void shortUnitsRollForwardFromTheStart(String duration, String start, String reset) {
        assertThat(BudgetDuration.parse(duration).nextReset(at(start))).isEqualTo(at(reset));
    }

    @ParameterizedTest(name = "{0} from {1}")
    @CsvSource(textBlock = """
            24h, 2025-01-01T10:07:00Z, 2025-01-02T00:00:00Z
            48h, 2025-01-01T10:07:00Z, 2025-01-03T00:00:00Z
            """)
    void wholeDaysWrittenInHoursAreDays(String duration, String start, String reset) {
        assertThat(BudgetDuration.parse(duration).nextReset(at(start))).isEqualTo(at(reset));
    }

    // --- days, weeks, months: calendar boundaries ---------------------------------------------------

    @ParameterizedTest(name = "1d from {0}")
    @CsvSource(textBlock = """
            2025-01-01T00:00:00Z,     2025-01-02T00:00:00Z
            2025-01-01T13:45:00Z,     2025-01-02T00:00:00Z
            2025-01-01T23:59:59.999Z, 2025-01-02T00:00:00Z
            2025-01-02T00:00:00Z,     2025-01-03T00:00:00Z
            """)
    void oneDayResetsAtTheNextMidnight(String start, String reset) {
        assertThat(BudgetDuration.parse("1d").nextReset(at(start))).isEqualTo(at(reset));
    }

    @ParameterizedTest(name = "{0} from {1}")
    @CsvSource(textBlock = """
            7d, 2025-01-01T12:00:00Z,     2025-01-06T00:00:00Z
            7d, 2025-01-05T23:59:59.999Z, 2025-01-06T00:00:00Z
            7d, 2025-01-06T00:00:00Z,     2025-01-13T00:00:00Z
            1w, 2025-01-01T12:00:00Z,     2025-01-06T00:00:00Z
            """)
    void aWeekResetsAtTheNextMondaysMidnight(String duration, String start, String reset) {
        // 2025-01-01 is a Wednesday; 2025-01-06 a Monday.
        assertThat(BudgetDuration.parse(duration).nextReset(at(start))).isEqualTo(at(reset));
    }

    @ParameterizedTest(name = "{0} from {1}")
    @CsvSource(textBlock = """
            30d, 2025-01-31T23:00:00Z,     2025-02-01T00:00:00Z
            30d, 2025-02-01T00:00:00Z,     2025-03-01T00:00:00Z
            30d, 2025-12-15T08:00:00Z,     2026-01-01T00:00:00Z
            1mo, 2025-01-31T23:59:59.999Z, 2025-02-01T00:00:00Z
            1mo, 2025-02-01T00:00:00Z,     2025-03-01T00:00:00Z
            2mo, 2025-11-20T08:00:00Z,     2026-01-01T00:00:00Z
            """)
    void aMonthResetsOnTheFirstOfTheNextMonth(String duration, String start, String reset) {
        assertThat(BudgetDuration.parse(duration).nextReset(at(start))).isEqualTo(at(reset));
    }

    @ParameterizedTest(name = "{0} from {1}")
    @CsvSource(textBlock = """
            3d, 2025-01-01T10:00:00Z, 2025-01-04T00:00:00Z
            3d, 2025-01-01T00:00:00Z, 2025-01-04T00:00:00Z
            2w, 2025-01-01T10:00:00Z, 2025-01-15T00:00:00Z
            """)
    void otherDayCountsEndThatManyDaysAfterTheStartsMidnight(String duration, String start, String reset) {
        assertThat(BudgetDuration.parse(duration).nextReset(at(start))).isEqualTo(at(reset));
    }

    @Test
    void calendarBoundariesFallInTheBudgetTimeZone() {
        ZoneId kolkata = ZoneId.of("Asia/Kolkata"); // UTC+05:30

        // 2025-01-01T00:00Z is 05:30 on the 1st in Kolkata; its next midnight is 18:30Z.
        assertThat(BudgetDuration.parse("1d").nextReset(at("2025-01-01T00:00:00Z"), kolkata))
                .isEqualTo(at("2025-01-01T18:30:00Z"));
        // 18:29:59.999Z is still the 1st there; 18:30Z is already the 2nd.
        assertThat(BudgetDuration.parse("1d").nextReset(at("2025-01-01T18:29:59.999Z"), kolkata))
                .isEqualTo(at("2025-01-01T18:30:00Z"));
        assertThat(BudgetDuration.parse("1d").nextReset(at("2025-01-01T18:30:00Z"), kolkata))
                .isEqualTo(at("2025-01-02T18:30:00Z"));
    }

    @Test
    void aDayAcrossADaylightSavingChangeEndsAtLocalMidnight() {
        ZoneId newYork = ZoneId.of("America/New_York"); // clocks go forward on 2025-03-09

        // Noon EDT on the 9th; midnight on the 10th is 04:00Z, a 23-hour day.
        assertThat(BudgetDuration.parse("1d").nextReset(at("2025-03-09T16:00:00Z"), newYork))
                .isEqualTo(at("2025-03-10T04:00:00Z"));
    }

    // --- the period holding now ---------------------------------------------------------------------

    @Test
    void aResetStillAheadEndsTheCurrentPeriod() {
        BudgetDuration duration = BudgetDuration.parse("30s");
        Instant reset = at("2025-01-01T00:00:30Z");

        assertThat(duration.currentPeriodEnd(reset, reset.minus(MS), ZoneOffset.UTC)).isEqualTo(reset);
    }

    @Test
    void theResetInstantBelongsToTheNextPeriod() {
        BudgetDuration duration = BudgetDuration.parse("30s");
        Instant reset = at("2025-01-01T00:00:30Z");

        assertThat(duration.currentPeriodEnd(reset, reset, ZoneOffset.UTC)).isEqualTo(reset.plusSeconds(30));
    }

    @Test
    void aRollingBudgetKeepsItsCadenceAfterSittingIdle() {
        BudgetDuration duration = BudgetDuration.parse("30s");
        Instant reset = at("2025-01-01T00:00:30Z");

        assertThat(duration.currentPeriodEnd(reset, reset.plusSeconds(60).minus(MS), ZoneOffset.UTC))
                .isEqualTo(reset.plusSeconds(60));
        assertThat(duration.currentPeriodEnd(reset, reset.plusSeconds(60), ZoneOffset.UTC))
                .isEqualTo(reset.plusSeconds(90));
        assertThat(duration.currentPeriodEnd(reset, reset.plusSeconds(95), ZoneOffset.UTC))
                .isEqualTo(reset.plusSeconds(120));
    }

    @Test
    void aDayCountBudgetKeepsItsCadenceAfterSittingIdle() {
        BudgetDuration duration = BudgetDuration.parse("3d");

        // Periods end on the 4th, 7th, 10th ... stepping from the 4th; not 3 days after "now".
        assertThat(duration.currentPeriodEnd(at("2025-01-04T00:00:00Z"), at("2025-01-08T00:00:00Z"), ZoneOffset.UTC))
                .isEqualTo(at("2025-01-10T00:00:00Z"));
    }

    @Test
    void aResetWrittenOffTheCalendarFallsBackOnIt() {
        // A store's reset at 13:45 (written by an older LiteLLM) is followed by midnights.
        assertThat(BudgetDuration.parse("1d")
                .currentPeriodEnd(at("2025-01-01T13:45:00Z"), at("2025-01-03T10:00:00Z"), ZoneOffset.UTC))
                .isEqualTo(at("2025-01-04T00:00:00Z"));
    }

    @Test
    void aRollingPeriodStartsAtTheLastResetAtOrBeforeNow() {
        BudgetDuration duration = BudgetDuration.parse("30s");
        Instant reset = at("2025-01-01T00:00:30Z");

        assertThat(duration.currentPeriodStart(reset, reset, ZoneOffset.UTC)).isEqualTo(reset);
        assertThat(duration.currentPeriodStart(reset, reset.plusSeconds(30).minus(MS), ZoneOffset.UTC)).isEqualTo(reset);
        assertThat(duration.currentPeriodStart(reset, reset.plusSeconds(30), ZoneOffset.UTC)).isEqualTo(reset.plusSeconds(30));
        assertThat(duration.currentPeriodStart(reset, reset.plusSeconds(95), ZoneOffset.UTC)).isEqualTo(reset.plusSeconds(90));
    }

    @Test
    void aDayCountPeriodStartsOnItsOwnCadence() {
        BudgetDuration duration = BudgetDuration.parse("3d");

        assertThat(duration.currentPeriodStart(at("2025-01-04T00:00:00Z"), at("2025-01-07T00:00:00Z").minus(MS), ZoneOffset.UTC))
                .isEqualTo(at("2025-01-04T00:00:00Z"));
        assertThat(duration.currentPeriodStart(at("2025-01-04T00:00:00Z"), at("2025-01-08T00:00:00Z"), ZoneOffset.UTC))
                .isEqualTo(at("2025-01-07T00:00:00Z"));
    }

    @Test
    void aPeriodCannotStartBeforeItsScheduledReset() {
        Instant reset = at("2025-01-01T00:00:30Z");

        assertThatThrownBy(() -> BudgetDuration.parse("30s").currentPeriodStart(reset, reset.minus(MS), ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
