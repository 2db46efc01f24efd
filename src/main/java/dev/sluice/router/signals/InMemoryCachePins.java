package dev.sluice.router.signals;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cache pins of a single process. A pin holds while {@code now} is before its end and
 * lapses exactly at it, like a bench; the newest pin for a prefix replaces the older one,
 * since the deployment that served last holds the warm cache.
 *
 * <p>A lapsed pin is removed when it is read. Conversations that simply stop are never read
 * again, so every {@value #SWEEP_EVERY}th read also sweeps every lapsed pin out, using that
 * read's time: memory stays bounded by the pins still running plus what one sweep interval
 * leaves, without a clock or a timer of the store's own.
 */
public final class InMemoryCachePins implements CachePins {
    static final int SWEEP_EVERY = 1024;

    private record Pin(String deploymentId, Instant until) {}

    private final ConcurrentMap<String, Pin> pins = new ConcurrentHashMap<>();
    private final AtomicLong reads = new AtomicLong();

    @Override
    public void pin(String prefixKey, String deploymentId, Instant until) {
        pins.put(prefixKey, new Pin(deploymentId, until));
    }

    @Override
    public Optional<String> pinned(String prefixKey, Instant now) {
        if (reads.incrementAndGet() % SWEEP_EVERY == 0) {
            // Removes by value, so a pin renewed by another thread meanwhile is kept.
            pins.values().removeIf(pin -> !now.isBefore(pin.until()));
        }
        Pin pin = pins.get(prefixKey);
        if (pin == null) {
            return Optional.empty();
        }
        if (now.isBefore(pin.until())) {
            return Optional.of(pin.deploymentId());
        }
        pins.remove(prefixKey, pin);
        return Optional.empty();
    }

    /** How many pins are held, lapsed or not; for tests of the sweep. */
    int size() {
        return pins.size();
    }
}
