package dev.sluice.ops.overload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.FakeTime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Liveness on a fake clock: a loop blocked, the collector thrashing, both sides of each bound, and the exit. */
class LivenessTest {
    private final FakeTime time = new FakeTime();
    private final AtomicLong gcMillis = new AtomicLong();
    private final AtomicInteger exits = new AtomicInteger();

    private Liveness liveness(Duration exitAfter) {
        Liveness liveness = new Liveness(time.ticker(), gcMillis::get, exitAfter);
        liveness.exitWith(exits::incrementAndGet);
        return liveness;
    }

    @Test
    void aLoopSilentJustUnderTheBoundIsAliveAndAtTheBoundIsBlocked() {
        Liveness liveness = liveness(Duration.ofSeconds(30));
        liveness.beat("loop-1");
        liveness.beat("loop-2");

        time.advance(Liveness.BLOCKED_AFTER.minusMillis(1));
        liveness.beat("loop-2");
        liveness.check();
        assertThat(liveness.problem()).isEmpty();

        time.advance(Duration.ofMillis(1));
        liveness.check();
        assertThat(liveness.problem()).hasValueSatisfying(why -> assertThat(why).contains("loop-1").contains("blocked"));

        liveness.beat("loop-1");
        liveness.check();
        assertThat(liveness.problem()).isEmpty();
        assertThat(exits).hasValue(0);
    }

    @Test
    void aForgottenLoopIsNoLongerWatched() {
        Liveness liveness = liveness(Duration.ofSeconds(30));
        liveness.beat("loop-1");
        liveness.forget("loop-1");

        time.advance(Duration.ofMinutes(1));
        liveness.check();

        assertThat(liveness.problem()).isEmpty();
    }

    @Test
    void halfOfAWindowSpentCollectingIsThrashingAndJustUnderIsNot() {
        Liveness liveness = liveness(Duration.ofSeconds(30));

        gcMillis.addAndGet(Liveness.GC_WINDOW.toMillis() / 2 - 1);
        time.advance(Liveness.GC_WINDOW);
        liveness.check();
        assertThat(liveness.problem()).isEmpty();

        gcMillis.addAndGet(Liveness.GC_WINDOW.toMillis() / 2);
        time.advance(Liveness.GC_WINDOW);
        liveness.check();
        assertThat(liveness.problem()).hasValueSatisfying(why -> assertThat(why).contains("collecting garbage"));
        assertThat(liveness.gcShare()).isEqualTo(0.5);
    }

    @Test
    void theProcessExitsOnceItHasFailedForTheWholeExitAfterAndNotBefore() {
        Liveness liveness = liveness(Duration.ofSeconds(30));
        liveness.beat("loop-1");
        time.advance(Liveness.BLOCKED_AFTER);
        liveness.check(); // failing from now

        time.advance(Duration.ofSeconds(30).minusMillis(1));
        liveness.check();
        assertThat(exits).hasValue(0);

        time.advance(Duration.ofMillis(1));
        liveness.check();
        assertThat(exits).hasValue(1);
    }

    @Test
    void aZeroExitAfterNeverExits() {
        Liveness liveness = liveness(Duration.ZERO);
        liveness.beat("loop-1");
        time.advance(Liveness.BLOCKED_AFTER);
        liveness.check();
        time.advance(Duration.ofHours(1));
        liveness.check();

        assertThat(liveness.problem()).isPresent();
        assertThat(exits).hasValue(0);
    }

    @Test
    void anUnarmedLivenessNeverEndsItsHost() {
        Liveness liveness = new Liveness(time.ticker(), gcMillis::get, Duration.ofSeconds(1));
        liveness.beat("loop-1");
        time.advance(Liveness.BLOCKED_AFTER);
        liveness.check();
        time.advance(Duration.ofSeconds(2));
        liveness.check();

        assertThat(liveness.problem()).isPresent(); // and the test JVM is still here
    }
}
