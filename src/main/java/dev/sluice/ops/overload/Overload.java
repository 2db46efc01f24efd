package dev.sluice.ops.overload;

import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import dev.sluice.wire.ApiError;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What keeps the gateway serving under more load than it can hold: the calls it serves at
 * once ({@link CallSlots}), whether its heap is too full to take more ({@link HeapPressure}),
 * and whether it is alive at all ({@link Liveness}), checked once a second by a job of its
 * own, on a platform thread so that it runs when virtual threads cannot. Closing it stops the checks.
 */
public final class Overload implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Overload.class);
    private static final Duration CHECK_EVERY = Duration.ofSeconds(1);
    private final CallSlots slots;
    private final HeapPressure heap;
    private final Liveness liveness;
    private final SupervisedLoop checker;

    private Overload(CallSlots slots, HeapPressure heap, Liveness liveness, Scheduler scheduler) {
        this.slots = slots;
        this.heap = heap;
        this.liveness = liveness;
        this.checker = scheduler.loop(Thread.ofPlatform().daemon(), "liveness", () -> checkEverySecond(scheduler));
    }

    /** Watches this JVM: its collectors, its heap, and the event loops that beat, checked on {@code scheduler}. */
    public static Overload watchingThisJvm(int maxCallsInFlight, Duration exitAfter, LongSupplier nanoTime, Scheduler scheduler) {
        return new Overload(new CallSlots(maxCallsInFlight), HeapPressure.watchingThisJvm(nanoTime),
                new Liveness(nanoTime, Overload::collectionMillis, exitAfter), scheduler);
    }

    private static long collectionMillis() {
        long total = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            // Concurrent cycles (G1's, ZGC's) run beside the application: only pauses stop it.
            if (!collector.getName().contains("Concurrent") && !collector.getName().contains("Cycles")) {
                total += Math.max(0, collector.getCollectionTime());
            }
        }
        return total;
    }

    private void checkEverySecond(Scheduler scheduler) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                scheduler.sleep(CHECK_EVERY);
                liveness.check();
                heap.recheck();
            } catch (InterruptedException e) {
                return;
            } catch (Throwable e) {
                // This thread is what notices a wedged process: it must outlive any one failure.
                log.warn("liveness.check_failed error=\"{}\"", e.toString());
            }
        }
    }

    /**
     * Takes a slot for a call whose caller is known, or the refusal when every slot is taken.
     * A slot taken is given back with {@link #callEnded}.
     */
    public Optional<ApiError> takeSlot() {
        return slots.tryTake() ? Optional.empty() : Optional.of(slots.full());
    }

    public void callEnded() {
        slots.release();
    }

    /** Whether the heap is too full for new work: every route but the probes and metrics is refused. */
    public boolean shedding() {
        return heap.shedding();
    }

    public CallSlots slots() {
        return slots;
    }

    public Liveness liveness() {
        return liveness;
    }

    @Override
    public void close() {
        checker.interrupt();
        heap.close();
    }
}
