package dev.sluice.router.signals;

import dev.sluice.failure.FailureClass;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The cooldown store of a single process: benches and failure counts in concurrent maps.
 * It is the store Sluice uses when no Redis is configured.
 *
 * <p>Each update is one atomic map operation on one key (a deployment's bench, or one
 * deployment's count of one failure class), so callers on different event loops never wait
 * on each other for more than that key's update. A lapsed bench is removed when it is read;
 * a count window is replaced by the next failure after it ends, so at most one window per
 * deployment and class is ever held.
 */
public final class InMemoryCooldownStore implements CooldownStore {

    /** Failures of one class counted in the window that opened at {@code start}. */
    private record Window(Instant start, int count) {
        boolean holds(Instant now, Duration length) {
            return now.isBefore(start.plus(length));
        }
    }

    private record CountKey(String deploymentId, FailureClass kind) {}

    private final ConcurrentMap<CountKey, Window> counts = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Instant> benches = new ConcurrentHashMap<>();

    @Override
    public int countFailure(String deploymentId, FailureClass kind, Instant now, Duration window) {
        Window updated = counts.compute(new CountKey(deploymentId, kind), (key, current) ->
                current != null && current.holds(now, window)
                        ? new Window(current.start(), current.count() + 1)
                        : new Window(now, 1));
        return updated.count();
    }

    @Override
    public void bench(String deploymentId, Instant until) {
        benches.merge(deploymentId, until, (earlier, later) -> later.isAfter(earlier) ? later : earlier);
        forgetCounts(deploymentId);
    }

    @Override
    public Optional<Instant> benchedUntil(String deploymentId, Instant now) {
        Instant until = benches.get(deploymentId);
        if (until == null) {
            return Optional.empty();
        }
        if (now.isBefore(until)) {
            return Optional.of(until);
        }
        // Conditional, so a bench set by another thread since the read above is kept.
        benches.remove(deploymentId, until);
        return Optional.empty();
    }

    @Override
    public boolean counting(String deploymentId, Instant now, Duration window) {
        for (FailureClass kind : FailureClass.values()) {
            Window counted = counts.get(new CountKey(deploymentId, kind));
            if (counted != null && counted.holds(now, window)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void clear(String deploymentId) {
        benches.remove(deploymentId);
        forgetCounts(deploymentId);
    }

    private void forgetCounts(String deploymentId) {
        for (FailureClass kind : FailureClass.values()) {
            counts.remove(new CountKey(deploymentId, kind));
        }
    }
}
