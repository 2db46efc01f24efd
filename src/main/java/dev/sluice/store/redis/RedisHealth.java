package dev.sluice.store.redis;

import java.time.Instant;
import java.util.Optional;

/**
 * How a {@link RedisLink} has fared since it was made, for readiness and metrics.
 *
 * @param up             whether Redis answers now
 * @param outages        how many times Redis became unreachable (a failed first connect included)
 * @param callFailures   calls that failed, timed out, or were not sent because Redis was down
 * @param decidedLocally requests whose rate limits, budgets or deployment claim were decided on
 *                       this replica's own counts because Redis could not answer
 * @param downSince      when the current outage began; empty while up
 * @param replicasSeen   the replicas sharing this Redis, this one included, at the last count it answered
 */
public record RedisHealth(boolean up, long outages, long callFailures, long decidedLocally, Optional<Instant> downSince,
        int replicasSeen) {}
