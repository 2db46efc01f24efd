package dev.sluice.router.signals;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The usage windows of a single process: for each deployment, the counts of the latest
 * calendar minute it was used in. A minute runs from {@code hh:mm:00.000} (inclusive) to the
 * next {@code :00} (exclusive), in UTC, as LiteLLM keys its {@code rpm}/{@code tpm} counts.
 *
 * <p>Only one minute per deployment is held: a record in a later minute replaces the
 * earlier one, and a late record for a minute older than the one held is dropped (it can
 * no longer change a current count). Each update is one atomic map operation on one key.
 */
public final class InMemoryUsageWindows implements UsageWindows {

    private record Minute(long index, long requests, long tokens) {}

    private final ConcurrentMap<String, Minute> minutes = new ConcurrentHashMap<>();

    @Override
    public void record(String deploymentId, Instant at, int requests, long tokens) {
        long index = minuteOf(at);
        minutes.compute(deploymentId, (id, held) -> {
            if (held == null || held.index() < index) {
                return new Minute(index, requests, tokens);
            }
            if (held.index() == index) {
                return new Minute(index, held.requests() + requests, held.tokens() + tokens);
            }
            return held;
        });
    }

    @Override
    public Future<Boolean> claim(String deploymentId, Instant at, OptionalInt rpm, OptionalInt tpm, int promptTokens) {
        return Future.succeededFuture(claimNow(deploymentId, at, rpm, tpm, promptTokens));
    }

    /** {@link #claim}, decided at once. */
    public boolean claimNow(String deploymentId, Instant at, OptionalInt rpm, OptionalInt tpm, int promptTokens) {
        long index = minuteOf(at);
        boolean[] claimed = new boolean[1];
        minutes.compute(deploymentId, (id, held) -> {
            // A claim timed just before a minute another thread has already moved on to is sent in
            // the new one, and counts there.
            Minute now = held == null || held.index() < index ? new Minute(index, 0, 0) : held;
            if (!UsageWindows.hasRoom(new Usage(now.requests(), now.tokens()), rpm, tpm, promptTokens)) {
                return now;
            }
            claimed[0] = true;
            return new Minute(now.index(), now.requests() + 1, now.tokens());
        });
        return claimed[0];
    }

    /**
     * Raises the counts of the minute that holds {@code at} to at least these: the totals
     * another store reported, which already include every count made here that it has seen.
     */
    public void raiseTo(String deploymentId, Instant at, long requests, long tokens) {
        long index = minuteOf(at);
        minutes.compute(deploymentId, (id, held) -> {
            if (held == null || held.index() < index) {
                return new Minute(index, requests, tokens);
            }
            if (held.index() == index) {
                return new Minute(index, Math.max(held.requests(), requests), Math.max(held.tokens(), tokens));
            }
            return held;
        });
    }

    @Override
    public Usage current(String deploymentId, Instant now) {
        Minute held = minutes.get(deploymentId);
        if (held == null || held.index() != minuteOf(now)) {
            return Usage.NONE;
        }
        return new Usage(held.requests(), held.tokens());
    }

    static long minuteOf(Instant at) {
        return Math.floorDiv(at.getEpochSecond(), 60);
    }
}
