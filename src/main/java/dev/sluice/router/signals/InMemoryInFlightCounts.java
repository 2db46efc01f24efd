package dev.sluice.router.signals;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The in-flight counts of a single process, one atomic counter update per call start and
 * end. A deployment with nothing open holds no entry, so a group that shrinks at run time
 * leaves nothing behind.
 *
 * <p>A count never goes below zero: an {@link #ended} without a matching {@link #started}
 * (a caller's bug) is dropped rather than letting one deployment look idle forever after.
 */
public final class InMemoryInFlightCounts implements InFlightCounts {
    private final ConcurrentMap<String, Integer> open = new ConcurrentHashMap<>();

    @Override
    public void started(String deploymentId) {
        open.merge(deploymentId, 1, Integer::sum);
    }

    @Override
    public void ended(String deploymentId) {
        open.computeIfPresent(deploymentId, (id, count) -> count > 1 ? count - 1 : null);
    }

    @Override
    public int count(String deploymentId) {
        return open.getOrDefault(deploymentId, 0);
    }

    /** The deployments with calls open right now and how many each, as a copy. */
    public Map<String, Integer> nonZero() {
        return Map.copyOf(open);
    }
}
