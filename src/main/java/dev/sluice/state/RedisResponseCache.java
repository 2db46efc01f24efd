package dev.sluice.state;

import dev.sluice.call.cache.CacheStore;
import dev.sluice.config.CacheSettings;
import dev.sluice.config.RouterSettings;
import dev.sluice.store.redis.RedisAddress;
import dev.sluice.store.redis.RedisLink;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The response cache in Redis ({@code cache_params.type: redis}), shared by every replica:
 * an entry is a string under the router's key prefix, {@code cache:} and the cache key,
 * written with {@code SET … PX ttl}.
 *
 * <h2>Design notes</h2>
 * A cache is worth a call only while it is quicker than the deployment, so it never makes
 * one fail or wait long: every command has the cache's socket timeout, and a command that
 * fails or times out is a miss (or a dropped write). After a failure Redis is left alone for
 * a while (a quarter second, doubling to five) so that an outage costs calls nothing, then the
 * next call tries again; only a command sent after the last failure ends the pause, so late
 * replies to commands sent before it do not. A command left unanswered past the timeout closes
 * the client's connections (one that stopped answering without closing, a link dropped
 * silently, would otherwise stay in the pool). A burst that finds every pooled connection busy
 * and the wait queue full is a plain miss: Redis is not down. The outage is logged once, at
 * WARN, and its end once, at INFO.
 *
 * <p>It has a pooled client of its own on a Vert.x of its own (one event loop, as the router's
 * link has), apart from the link the shared router state uses: a slow read of a large entry
 * must not make the router take Redis for down. Replies come back on the caller's context.
 */
public final class RedisResponseCache implements CacheStore {
    private static final Logger log = LoggerFactory.getLogger("dev.sluice.call.cache");
    static final long FIRST_PAUSE_MS = 250;
    static final long LONGEST_PAUSE_MS = 5_000;
    static final int POOL_SIZE = 16;
    static final int POOL_WAITING = 4096;

    private final Vertx vertx;
    private final RedisOptions options;
    private volatile Redis client;
    private final String where;
    private final String prefix;
    private final long timeoutMillis;
    private final LongSupplier millis;
    private final LongAdder unavailable = new LongAdder();
    /** Until when (epoch ms) Redis is not asked, after a failure; 0 while it answers. */
    private final AtomicLong pausedUntil = new AtomicLong();
    /** Counts failures: a reply ends a pause only if its command was sent after the last one. */
    private final AtomicLong failures = new AtomicLong();
    private volatile long pause = FIRST_PAUSE_MS;
    private volatile boolean outageLogged;

    RedisResponseCache(RedisAddress address, String prefix, Duration timeout, LongSupplier millis) {
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        // Every call of a burst may read at once: room for them, past the router link's pool.
        this.options = address.options().setMaxPoolSize(POOL_SIZE).setMaxPoolWaiting(POOL_WAITING);
        this.client = Redis.createClient(vertx, options);
        this.where = address.where();
        this.prefix = prefix + "cache:";
        this.timeoutMillis = Math.max(1, timeout.toMillis());
        this.millis = millis;
    }

    /**
     * The cache in the Redis {@code settings} name, or else in the one {@code router} names.
     *
     * @param clock what the Redis link's outage log dates by
     * @throws IllegalStateException when neither names one (the config loader refuses that first)
     */
    public static RedisResponseCache open(CacheSettings settings, RouterSettings router, Clock clock) {
        RedisAddress address = settings.redis().map(RedisAddress::of).or(() -> RedisAddress.of(router))
                .orElseThrow(() -> new IllegalStateException("a Redis cache without a Redis"));
        return new RedisResponseCache(address, router.redis().redisKeyPrefix(), settings.socketTimeout(),
                clock::millis);
    }

    @Override
    public String type() {
        return "redis";
    }

    @Override
    public Future<Optional<byte[]>> get(String key) {
        return call(Request.cmd(Command.GET).arg(prefix + key))
                .map(response -> response.map(r -> r.toBuffer().getBytes()));
    }

    @Override
    public Future<Void> put(String key, byte[] entry, Optional<Duration> ttl) {
        Request set = Request.cmd(Command.SET).arg(prefix + key).arg(Buffer.buffer(entry));
        ttl.ifPresent(life -> set.arg("PX").arg(Math.max(1, life.toMillis())));
        return call(set).mapEmpty();
    }

    /** The reply, or empty when Redis had none (a nil) or could not answer; never a failure. */
    private Future<Optional<Response>> call(Request request) {
        if (millis.getAsLong() < pausedUntil.get()) {
            unavailable.increment();
            return Future.succeededFuture(Optional.empty());
        }
        Context caller = Vertx.currentContext();
        long sentAfter = failures.get();
        Redis sentOn = client;
        Future<Optional<Response>> reply = sentOn.send(request).timeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .map(response -> {
                    answered(sentAfter);
                    return Optional.ofNullable(response);
                })
                .recover(failure -> {
                    if (busy(failure)) {
                        unavailable.increment();
                    } else {
                        failed(failure, sentOn);
                    }
                    return Future.succeededFuture(Optional.empty());
                });
        return RedisLink.backOn(caller, reply);
    }

    /** Every pooled connection busy and the queue for them full: a miss, not an outage. */
    private static boolean busy(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.contains("max wait queue");
    }

    private void answered(long sentAfter) {
        if (failures.get() == sentAfter && (pausedUntil.get() != 0 || outageLogged)) {
            pausedUntil.set(0);
            pause = FIRST_PAUSE_MS;
            if (outageLogged) {
                outageLogged = false;
                log.info("cache.redis_back where={} (the response cache reads and stores again)", where);
            }
        }
    }

    private void failed(Throwable failure, Redis sentOn) {
        failures.incrementAndGet();
        unavailable.increment();
        if (failure instanceof java.util.concurrent.TimeoutException && client == sentOn) {
            client = Redis.createClient(vertx, options);
            sentOn.close();
        }
        long wait = pause;
        pause = Math.min(LONGEST_PAUSE_MS, wait * 2);
        pausedUntil.set(millis.getAsLong() + wait);
        if (!outageLogged) {
            outageLogged = true;
            log.warn("cache.redis_unavailable where={} cause=\"{}\" (calls go on as cache misses until it answers)", where,
                    failure instanceof java.util.concurrent.TimeoutException ? "no answer within " + timeoutMillis + " ms"
                            : String.valueOf(failure.getMessage()));
        }
    }

    @Override
    public long unavailable() {
        return unavailable.sum();
    }

    @Override
    public void close() {
        try {
            client.close().await(5, TimeUnit.SECONDS);
            vertx.close().await(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("cache.redis_close_failed cause=\"{}\"", e.toString());
        }
    }
}
