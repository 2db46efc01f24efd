package dev.sluice.overload;

import dev.sluice.api.ApiError;
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
 * and whether it is alive at all ({@link Liveness}), checked once a second by a thread of its
 * own. Closing it stops the checks.
 */
public final class Overload implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Overload.class);
    private final CallSlots slots;
    private final HeapPressure heap;
    private final Liveness liveness;
    private final Thread checker;

    private Overload(CallSlots slots, HeapPressure heap, Liveness liveness) {
        this.slots = slots;
        this.heap = heap;
        this.liveness = liveness;
        this.checker = Thread.ofPlatform().daemon().name("sluice-liveness").start(this::checkEverySecond);
    }

    /** Watches this JVM: its collectors, its heap, and the event loops that beat. */
    public static Overload watchingThisJvm(int maxCallsInFlight, Duration exitAfter, LongSupplier nanoTime) {
        return new Overload(new CallSlots(maxCallsInFlight), HeapPressure.watchingThisJvm(),
                new Liveness(nanoTime, Overload::collectionMillis, exitAfter));
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

    private void checkEverySecond() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(1000);
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
