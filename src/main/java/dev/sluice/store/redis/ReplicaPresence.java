package dev.sluice.store.redis;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which replicas share this Redis: each writes its id with the time into one sorted set
 * ({@code <prefix>replicas}) every few seconds and counts the ids written within
 * {@link #alive}. The last count seen is what this replica divides a rate limit by while it
 * must count on its own (the rate limits of {@code state/OutageLimits}); it is kept when Redis goes away, as Redis
 * can no longer tell it.
 */
public final class ReplicaPresence {
    /** How often a replica writes its id; it counts as alive for three of these. */
    static final java.time.Duration BEAT_EVERY = java.time.Duration.ofSeconds(3);

    /* KEYS: the set. ARGV: now (ms), this replica's id, lapsed before (ms), set ttl (ms). Returns the replicas alive. */
    private static final RedisScript BEAT = new RedisScript("""
            redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
            redis.call('PEXPIRE', KEYS[1], ARGV[4])
            return redis.call('ZCARD', KEYS[1])
            """);

    private final RedisLink link;
    private final Clock clock;
    private final Duration alive;
    private final String key;
    private final String id = UUID.randomUUID().toString();
    private final AtomicInteger seen = new AtomicInteger(1);

    /** @param alive how recently a replica must have written its id to count as alive: a few of its beats */
    ReplicaPresence(RedisLink link, Clock clock, Duration alive) {
        this.link = link;
        this.clock = clock;
        this.alive = alive;
        this.key = link.prefix() + "replicas";
    }

    /** Writes this replica's id and reads how many replicas are alive; nothing happens while Redis is down. */
    Future<Integer> beat() {
        long now = clock.millis();
        return BEAT.run(link, List.of(key), List.of(Long.toString(now), id, Long.toString(now - alive.toMillis()),
                Long.toString(2 * alive.toMillis()))).map(reply -> {
                    int replicas = Math.max(1, reply.toInteger());
                    seen.set(replicas);
                    return replicas;
                });
    }

    /** How many replicas, this one included, were alive at the last beat Redis answered; 1 before any. */
    public int replicasSeen() {
        return seen.get();
    }

    /** Takes this replica's id out, so the others stop counting it at once. */
    void leave() {
        link.send(Request.cmd(Command.ZREM).arg(key).arg(id));
    }
}
