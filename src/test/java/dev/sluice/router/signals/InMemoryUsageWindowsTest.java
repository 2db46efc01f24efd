package dev.sluice.router.signals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.router.signals.UsageWindows.Usage;
import dev.sluice.testing.Concurrently;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InMemoryUsageWindowsTest {
    /** The start of a calendar minute. */
    static final Instant MINUTE = Instant.parse("2025-01-01T00:00:00Z");
    static final Instant NEXT_MINUTE = MINUTE.plusSeconds(60);
    static final Duration MS = Duration.ofMillis(1);

    final InMemoryUsageWindows windows = new InMemoryUsageWindows();

    @Test
    void aDeploymentNeverUsedHasNoUsage() {
        assertThat(windows.current("a", MINUTE)).isEqualTo(Usage.NONE);
    }

    @Test
    void recordsInOneMinuteAddUp() {
        windows.record("a", MINUTE, 1, 0);
        windows.record("a", MINUTE.plusSeconds(30), 0, 400);
        windows.record("a", NEXT_MINUTE.minus(MS), 1, 100);

        assertThat(windows.current("a", MINUTE.plusSeconds(45))).isEqualTo(new Usage(2, 500));
    }

    @Test
    void usageIsKeptPerDeployment() {
        windows.record("a", MINUTE, 1, 10);

        assertThat(windows.current("b", MINUTE)).isEqualTo(Usage.NONE);
    }

    @Test
    void theMinuteStillCountsOneMillisecondBeforeTheNextOne() {
        windows.record("a", MINUTE, 3, 300);

        assertThat(windows.current("a", NEXT_MINUTE.minus(MS))).isEqualTo(new Usage(3, 300));
    }

    @Test
    void theCountStartsAgainExactlyAtTheNextMinute() {
        windows.record("a", MINUTE, 3, 300);

        assertThat(windows.current("a", NEXT_MINUTE)).isEqualTo(Usage.NONE);
    }

    @Test
    void aRecordExactlyAtTheMinuteBelongsToTheNewMinute() {
        windows.record("a", NEXT_MINUTE.minus(MS), 1, 100);
        windows.record("a", NEXT_MINUTE, 1, 7);

        assertThat(windows.current("a", NEXT_MINUTE)).isEqualTo(new Usage(1, 7));
        assertThat(windows.current("a", NEXT_MINUTE.plusSeconds(59))).isEqualTo(new Usage(1, 7));
    }

    @Test
    void theOldMinuteIsDroppedOnceANewOneIsRecorded() {
        windows.record("a", MINUTE, 1, 100);
        windows.record("a", NEXT_MINUTE, 1, 7);

        // Asked about the old minute again, the store no longer has it.
        assertThat(windows.current("a", MINUTE.plusSeconds(30))).isEqualTo(Usage.NONE);
    }

    @Test
    void aLateRecordForAnOlderMinuteDoesNotTouchTheCurrentOne() {
        windows.record("a", NEXT_MINUTE, 1, 7);
        windows.record("a", NEXT_MINUTE.minus(MS), 1, 100);

        assertThat(windows.current("a", NEXT_MINUTE)).isEqualTo(new Usage(1, 7));
    }

    @Test
    void minutesAreCalendarMinutesNotSixtySecondsFromTheFirstRecord() {
        windows.record("a", MINUTE.plusSeconds(50), 1, 100);

        assertThat(windows.current("a", MINUTE.plusSeconds(59))).isEqualTo(new Usage(1, 100));
        assertThat(windows.current("a", NEXT_MINUTE.plusSeconds(1))).isEqualTo(Usage.NONE);
    }

    @Test
    void recordsFromManyThreadsAddUp() throws Exception {
        Concurrently.run(8, thread -> {
            for (int i = 0; i < 10_000; i++) {
                windows.record("a", MINUTE.plusMillis(i), 1, 3);
            }
        });

        assertThat(windows.current("a", MINUTE)).isEqualTo(new Usage(80_000, 240_000));
    }

    @Test
    void recordsFromManyThreadsAcrossTheMinuteKeepOnlyTheNewMinute() throws Exception {
        // Half the threads still write the old minute while the others have moved on.
        Concurrently.run(8, thread -> {
            Instant at = thread % 2 == 0 ? NEXT_MINUTE.minus(MS) : NEXT_MINUTE;
            for (int i = 0; i < 10_000; i++) {
                windows.record("a", at, 1, 1);
            }
        });

        Usage next = windows.current("a", NEXT_MINUTE);
        assertThat(next).isEqualTo(new Usage(40_000, 40_000));
    }

    // --- claims ---------------------------------------------------------------------------------

    @Test
    void claimsTakeTheRpmExactlyAndRaceForTheLastPlaceFairly() throws Exception {
        java.util.concurrent.atomic.AtomicInteger claimed = new java.util.concurrent.atomic.AtomicInteger();
        Concurrently.run(40, i -> {
            if (windows.claimNow("a", MINUTE, java.util.OptionalInt.of(10), java.util.OptionalInt.empty(), 0)) {
                claimed.incrementAndGet();
            }
        });

        assertThat(claimed).hasValue(10);
        assertThat(windows.current("a", MINUTE)).isEqualTo(new Usage(10, 0));
    }

    @Test
    void aClaimTimedJustBeforeAMinuteAlreadyBegunCountsInTheNewOne() {
        windows.record("a", NEXT_MINUTE, 1, 0);

        assertThat(windows.claimNow("a", NEXT_MINUTE.minus(MS), java.util.OptionalInt.of(2), java.util.OptionalInt.empty(), 0))
                .as("the new minute has room for one more").isTrue();
        assertThat(windows.claimNow("a", NEXT_MINUTE.minus(MS), java.util.OptionalInt.of(2), java.util.OptionalInt.empty(), 0))
                .as("and not for a third").isFalse();
        assertThat(windows.current("a", NEXT_MINUTE)).isEqualTo(new Usage(2, 0));
    }

    @Test
    void raisingNeverLowersACountAndALaterMinuteStartsOver() {
        windows.record("a", MINUTE, 3, 300);
        windows.raiseTo("a", MINUTE, 2, 500);
        assertThat(windows.current("a", MINUTE)).isEqualTo(new Usage(3, 500));

        windows.raiseTo("a", NEXT_MINUTE, 1, 10);
        assertThat(windows.current("a", NEXT_MINUTE)).isEqualTo(new Usage(1, 10));
        windows.raiseTo("a", MINUTE, 9, 900);
        assertThat(windows.current("a", NEXT_MINUTE)).as("a report for a minute already over changes nothing")
                .isEqualTo(new Usage(1, 10));
    }
}
