package dev.sluice.failure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    @Test
    void absentHeadersAskForNothing() {
        assertThat(RetryAfter.parse(null, null, NOW)).isEmpty();
    }

    @Test
    void integerSeconds() {
        assertThat(RetryAfter.parse(null, "2", NOW)).contains(Duration.ofSeconds(2));
        assertThat(RetryAfter.parse(null, "120", NOW)).contains(Duration.ofMinutes(2));
    }

    @Test
    void zeroSecondsIsNoWait() {
        assertThat(RetryAfter.parse(null, "0", NOW)).contains(Duration.ZERO);
    }

    @Test
    void decimalSeconds() {
        assertThat(RetryAfter.parse(null, "1.5", NOW)).contains(Duration.ofMillis(1500));
        assertThat(RetryAfter.parse(null, "0.001", NOW)).contains(Duration.ofMillis(1));
    }

    @Test
    void fractionsBelowANanosecondRoundUp() {
        assertThat(RetryAfter.parse(null, "0.0000000001", NOW)).contains(Duration.ofNanos(1));
        assertThat(RetryAfter.parse("0.0000001", null, NOW)).contains(Duration.ofNanos(1));
    }

    @Test
    void surroundingWhitespaceIsIgnored() {
        assertThat(RetryAfter.parse(null, " 3 ", NOW)).contains(Duration.ofSeconds(3));
        assertThat(RetryAfter.parse(" 40 ", null, NOW)).contains(Duration.ofMillis(40));
    }

    @Test
    void largeValuesAreNotCapped() {
        assertThat(RetryAfter.parse(null, "86400", NOW)).contains(Duration.ofDays(1));
        assertThat(RetryAfter.parse("3600000", null, NOW)).contains(Duration.ofHours(1));
    }

    @Test
    void valuesBeyondWhatNanosecondsCanHoldAreMalformed() {
        long maxSeconds = Long.MAX_VALUE / 1_000_000_000L;
        assertThat(RetryAfter.parse(null, Long.toString(maxSeconds), NOW)).contains(Duration.ofSeconds(maxSeconds));
        assertThat(RetryAfter.parse(null, Long.toString(maxSeconds + 1), NOW)).isEmpty();
        assertThat(RetryAfter.parse(null, "99999999999999999999999999", NOW)).isEmpty();
    }

    @Test
    void httpDateInTheFutureIsTheTimeUntilThen() {
        assertThat(RetryAfter.parse(null, "Sun, 01 Jun 2025 12:01:30 GMT", NOW)).contains(Duration.ofSeconds(90));
    }

    @Test
    void httpDateOneSecondAheadAndAtNow() {
        assertThat(RetryAfter.parse(null, "Sun, 01 Jun 2025 12:00:01 GMT", NOW)).contains(Duration.ofSeconds(1));
        assertThat(RetryAfter.parse(null, "Sun, 01 Jun 2025 12:00:00 GMT", NOW)).contains(Duration.ZERO);
    }

    @Test
    void httpDateInThePastIsNoWait() {
        assertThat(RetryAfter.parse(null, "Sun, 01 Jun 2025 11:59:59 GMT", NOW)).contains(Duration.ZERO);
        assertThat(RetryAfter.parse(null, "Wed, 21 Oct 2015 07:28:00 GMT", NOW)).contains(Duration.ZERO);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "-0.5", "soon", "", "  ", "1e3", "+5", "1.", ".5", "1,5", "0x10", "5s",
            "NaN", "Infinity", "2025-06-01T12:01:00Z", "Sunday, 01-Jun-25 12:01:00 GMT", "Sun Jun  1 12:01:00 2025"})
    void malformedRetryAfterAsksForNothing(String value) {
        assertThat(RetryAfter.parse(null, value, NOW)).isEmpty();
    }

    @Test
    void millisecondsAreReadFirst() {
        assertThat(RetryAfter.parse("1500", "20", NOW)).contains(Duration.ofMillis(1500));
        assertThat(RetryAfter.parse("0", "20", NOW)).contains(Duration.ZERO);
    }

    @Test
    void decimalMilliseconds() {
        assertThat(RetryAfter.parse("12.5", null, NOW)).contains(Duration.ofNanos(12_500_000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-100", "soon", "", "1e3"})
    void malformedMillisecondsFallBackToRetryAfter(String millis) {
        assertThat(RetryAfter.parse(millis, "20", NOW)).contains(Duration.ofSeconds(20));
        assertThat(RetryAfter.parse(millis, null, NOW)).isEmpty();
    }

    @Test
    void millisecondsAreNeverReadAsAnHttpDate() {
        assertThat(RetryAfter.parse("Sun, 01 Jun 2025 12:01:30 GMT", null, NOW)).isEmpty();
    }
}
