package dev.sluice.ops.overload;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.sluice.wire.ApiError;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the heap is too full to take more work. After each full collection (the only one
 * that says what the heap really holds: between them the old generation fills with garbage
 * as a matter of course) the old generation still in use is compared with the most it may
 * grow to, since it is the old generation that fills when live data grows (the young one is
 * empty after a full collection); at {@link #SHED_AT} or more the gateway sheds, answering
 * every route but the probes and metrics 503 with {@code Retry-After}, and takes work again
 * once the old generation is at {@link #RESUME_BELOW} or less. The gap between the two keeps it from
 * flapping. Shedding before the collector thrashes is what keeps the calls already admitted
 * alive. While it sheds little is promoted and no full collection may come: {@link #recheck}
 * looks again once a second, and asks for one when the last is more than a few seconds old.
 * Read from the serial and parallel collectors' full collections and G1's full ones; under a
 * collector that reports none (ZGC), the gateway never sheds on the heap. Thread-safe.
 */
public final class HeapPressure implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HeapPressure.class);
    static final double SHED_AT = 0.85;
    static final double RESUME_BELOW = 0.70;

    /** How long shedding goes without a full collection before one is asked for. */
    static final long RECHECK_AFTER_NANOS = 1_000_000_000L;

    private final long maxHeap;
    private final LongSupplier ticker;
    private volatile boolean shedding;
    private volatile long lastFullCollectionNanos;
    private final List<Runnable> detach = new ArrayList<>();
    /** The old generation, watched between collections while shedding; null where the JVM has none. */
    private MemoryPoolMXBean old;

    /** @param ticker monotonic nanoseconds, to tell how old the last full collection is */
    HeapPressure(long maxHeap, LongSupplier ticker) {
        this.maxHeap = maxHeap;
        this.ticker = ticker;
        this.lastFullCollectionNanos = ticker.getAsLong();
    }

    /** Pressure read from this JVM's collectors, from now until {@link #close}. */
    public static HeapPressure watchingThisJvm(LongSupplier ticker) {
        MemoryPoolMXBean old = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP && pool.getUsage().getMax() > 0)
                .filter(pool -> pool.getName().contains("Old") || pool.getName().contains("Tenured"))
                .findFirst().orElse(null);
        HeapPressure pressure = new HeapPressure(old == null ? Runtime.getRuntime().maxMemory() : old.getUsage().getMax(), ticker);
        pressure.old = old;
        Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .filter(pool -> old == null || pool.getName().equals(old.getName()))
                .map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
        NotificationListener listener = (notification, handback) -> pressure.collected(notification, heapPools);
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                pressure.detach.add(() -> {
                    try {
                        emitter.removeNotificationListener(listener);
                    } catch (ListenerNotFoundException e) {
                        // already gone
                    }
                });
            }
        }
        return pressure;
    }

    private void collected(Notification notification, Set<String> heapPools) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        if (!info.getGcAction().contains("major")) {
            return;
        }
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        lastFullCollectionNanos = ticker.getAsLong();
        afterFullCollection(used);
    }

    /**
     * While shedding, looks again without waiting for a collection that may not come: the old
     * generation in use now (garbage included) at or below {@link #RESUME_BELOW} ends it; past
     * that, a full collection is asked for once the last is {@link #RECHECK_AFTER_NANOS} old.
     */
    void recheck() {
        if (!shedding || old == null) {
            return;
        }
        long used = old.getUsage().getUsed();
        if ((double) used / maxHeap <= RESUME_BELOW) {
            afterFullCollection(used);
        } else if (ticker.getAsLong() - lastFullCollectionNanos > RECHECK_AFTER_NANOS) {
            lastFullCollectionNanos = ticker.getAsLong();
            System.gc(); // its notification decides
        }
    }

    /** What a full collection left in use: sheds at {@link #SHED_AT} of the heap, resumes at {@link #RESUME_BELOW}. */
    void afterFullCollection(long usedBytes) {
        double share = (double) usedBytes / maxHeap;
        if (!shedding && share >= SHED_AT) {
            shedding = true;
            log.warn("overload.heap_shedding used_bytes={} max_bytes={} share={}: new calls and connections are refused"
                    + " until a full collection leaves less than {}", usedBytes, maxHeap, String.format("%.2f", share), RESUME_BELOW);
        } else if (shedding && share <= RESUME_BELOW) {
            shedding = false;
            log.info("overload.heap_recovered used_bytes={} max_bytes={} share={}", usedBytes, maxHeap, String.format("%.2f", share));
        }
    }

    /** Whether new calls and connections are refused now. */
    public boolean shedding() {
        return shedding;
    }

    /** The answer to a call that arrives while the heap is too full. */
    public static ApiError refusal() {
        return new ApiError(503, "service_unavailable", "The gateway's memory is nearly full; retry shortly.", null,
                "server_overloaded").withHeaders(Map.of("Retry-After", "2"));
    }

    @Override
    public void close() {
        detach.forEach(Runnable::run);
        detach.clear();
    }
}
