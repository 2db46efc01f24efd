package dev.sluice.time;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.FakeTime;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A wait on the injected time ends when its time has passed and not before, or as soon as a
 * wake finds its condition met; a wake leaves no interrupt behind, and an interrupt of its own
 * is passed on. Fake time only: no sleeps.
 */
class WakeupTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final FakeTime time = new FakeTime();
    private final Wakeup wakeup = Wakeup.on(time.source());
    private final BlockingQueue<String> ended = new LinkedBlockingQueue<>();
    private volatile boolean done;

    private Thread waiter() {
        return Thread.ofVirtual().start(() -> {
            try {
                boolean met = wakeup.await(() -> done, TIMEOUT);
                ended.add((met ? "met" : "timed out") + " at " + time.stamp()
                        + (Thread.currentThread().isInterrupted() ? ", interrupted" : ""));
            } catch (InterruptedException e) {
                ended.add("interrupted at " + time.stamp());
            }
        });
    }

    @Test
    void aWaitTimesOutWhenItsTimeHasPassedAndNotBefore() throws InterruptedException {
        waiter();
        time.awaitWaiting(1);
        time.advance(TIMEOUT.minusNanos(1));
        time.awaitWaiting(1);
        assertThat(ended).isEmpty();

        time.advance(Duration.ofNanos(1));
        assertThat(ended.poll(10, TimeUnit.SECONDS)).isEqualTo("timed out at 5000");
    }

    @Test
    void aWakeEndsTheWaitOnceItsConditionIsMetAndLeavesNoInterrupt() throws InterruptedException {
        waiter();
        time.awaitWaiting(1);

        wakeup.wake();
        time.awaitWaiting(1); // woken with the condition unmet, it waits again
        assertThat(ended).isEmpty();

        done = true;
        wakeup.wake();
        assertThat(ended.poll(10, TimeUnit.SECONDS)).isEqualTo("met at 0");
    }

    @Test
    void anInterruptOtherThanAWakeIsPassedOn() throws InterruptedException {
        Thread waiting = waiter();
        time.awaitWaiting(1);

        waiting.interrupt();

        assertThat(ended.poll(10, TimeUnit.SECONDS)).isEqualTo("interrupted at 0");
    }
}
