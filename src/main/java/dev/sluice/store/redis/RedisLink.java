package dev.sluice.store.redis;

import dev.sluice.config.RouterSettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's connection to Redis: one connection for commands and one subscribed to the
 * channels the shared stores listen on, a key prefix, and a time budget for every call.
 *
 * <h2>Design notes</h2>
 * Redis is where replicas meet, never something a request waits on. {@link #send} returns at
 * once with a failed future while Redis is down, and fails any call that takes longer than the
 * budget; callers keep serving on their local state. Whether it is down is a circuit breaker's
 * call ({@link LinkBreaker}): the link is <em>up</em> once both connections are open, every
 * channel is subscribed and {@link LinkBreaker#PROBES_TO_CLOSE} probes in a row were answered
 * within the budget, and <em>down</em> from the first error or close of either connection,
 * {@link LinkBreaker#FAILURES_TO_OPEN} calls in a row left unanswered past their budget (one
 * slow answer is not an outage), or a connect that fails or is not done within a few seconds.
 * It then logs the outage once at WARN with its reason and reconnects by itself after a wait
 * that doubles from {@link #FIRST_RETRY} to {@link #LONGEST_RETRY} (from the first again only
 * after {@link #STABLE_AFTER} up); once up it logs that at INFO and runs every {@link #onUp}
 * listener, so the stores can read what they missed.
 *
 * <p>The link runs on a Vert.x instance of its own with one event loop: connecting, subscribing
 * and every state change happen on that one thread, and Redis replies never queue behind
 * request handling. Only {@link #start} blocks (the starting thread, not an event loop), for
 * the first attempt to connect, so a gateway starts already sharing state when Redis is there.
 */
public final class RedisLink implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger("dev.sluice.state");

    /** How long one Redis call may take before the caller goes on without it. */
    public static final Duration DEFAULT_CALL_BUDGET = Duration.ofMillis(50);
    static final Duration FIRST_RETRY = Duration.ofMillis(50);
    static final Duration LONGEST_RETRY = Duration.ofSeconds(2);
    /** How long the link must stay up before a new outage is retried from {@link #FIRST_RETRY} again. */
    static final Duration STABLE_AFTER = Duration.ofSeconds(10);
    /** How long a connection taken for unanswering stays open for the answers still owed on it. */
    static final Duration DRAIN = Duration.ofSeconds(60);
    /** The pause between the probes of a new connection. */
    private static final long PROBE_EVERY_MS = 20;
    /** How long one attempt to connect, subscribe and probe may take in all. */
    private static final long CONNECT_ATTEMPT_LIMIT_MS = 3L * RedisAddress.CONNECT_TIMEOUT_MS;

    /** The failure every call gets while Redis is down: cheap, since it is thrown on every call of an outage. */
    private static final RedisUnavailable DOWN = new RedisUnavailable("Redis is unreachable");

    private final Vertx vertx;
    private final Context context;
    private final RedisOptions options;
    /** Replaced when a connection stops answering: a pooled connection closed by its user goes back to the pool. */
    private volatile Redis client;
    private final String where;
    private final String prefix;
    private final long budgetMillis;
    private final Clock clock;
    private final LinkChannels channels = new LinkChannels();
    private final List<Runnable> upListeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    private final ReplicaPresence presence;
    private final long beatEveryMillis;

    private final LinkStats stats = new LinkStats();

    /** Null while down. Written on the link's event loop only. */
    private volatile RedisConnection commands;
    private volatile boolean closed;
    // The fields below are touched on the link's event loop only.
    private RedisConnection subscriber;
    /** A new command connection while its probes run. */
    private RedisConnection probed;
    private long generation;
    private boolean outageLogged;
    private final LinkBreaker breaker;

    private RedisLink(RedisAddress address, String prefix, Duration budget, Duration beatEvery, Clock clock) {
        this.clock = clock;
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        this.context = vertx.getOrCreateContext();
        this.options = address.options();
        this.client = Redis.createClient(vertx, options);
        this.where = address.where();
        this.prefix = prefix;
        // A sub-millisecond budget is rounded up: a timer cannot be shorter than 1 ms.
        this.budgetMillis = Math.max(1, budget.toMillis());
        this.presence = new ReplicaPresence(this, clock, beatEvery.multipliedBy(3));
        this.beatEveryMillis = beatEvery.toMillis();
        this.breaker = new LinkBreaker(clock, FIRST_RETRY, LONGEST_RETRY, STABLE_AFTER);
    }

    /**
     * The link the router settings ask for, or empty when they name no Redis; each call may take
     * {@code budget}. Not connected until {@link #start}.
     */
    public static Optional<RedisLink> configured(RouterSettings router, Duration budget, Clock clock) {
        return RedisAddress.of(router).map(address -> new RedisLink(address, router.redis().redisKeyPrefix(), budget,
                ReplicaPresence.BEAT_EVERY, clock));
    }

    /** A link to a Redis URL, for tests and tools; {@code beatEvery}: how often it tells the others it is alive. */
    public static RedisLink to(String url, String prefix, Duration budget, Duration beatEvery, Clock clock) {
        return new RedisLink(RedisAddress.ofUrl(url), prefix, budget, beatEvery, clock);
    }

    /** What every key and channel of this gateway starts with. */
    public String prefix() {
        return prefix;
    }

    /** Whether Redis answered the last connect and has not failed since. */
    public boolean isUp() {
        return commands != null;
    }

    /** The replicas sharing this Redis, as last seen. */
    public ReplicaPresence presence() {
        return presence;
    }

    /**
     * Listens on {@code channel} (a full name, prefix included), now and after every
     * reconnect; {@code onMessage} runs on the link's event loop. Register before {@link #start}.
     */
    public void subscribe(String channel, Consumer<String> onMessage) {
        channels.add(channel, onMessage);
    }

    /** Runs {@code listener} on the link's event loop each time the link comes up, the first time included. */
    public void onUp(Runnable listener) {
        upListeners.add(listener);
    }

    /**
     * Starts connecting and waits up to {@code wait} for the first attempt to succeed or fail;
     * either way the link goes on by itself. Call from a thread that may block.
     */
    public void start(Duration wait) {
        context.runOnContext(v -> connect());
        vertx.setPeriodic(beatEveryMillis, id -> {
            if (isUp()) {
                presence.beat();
            }
        });
        try {
            firstAttempt.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends one command: fails at once while Redis is down, and after the time budget when
     * Redis is slow. Safe from any thread; the future completes on the link's event loop.
     */
    public Future<Response> send(Request request) {
        return send(request, null);
    }

    /**
     * {@link #send}, and {@code eventually} (when not null) completes with the answer whenever it
     * comes, past the budget included, or fails when it never can (Redis down, connection lost):
     * so a caller that went on without an answer can learn later what Redis did.
     */
    Future<Response> send(Request request, Promise<Response> eventually) {
        RedisConnection connection = commands;
        if (connection == null) {
            stats.callFailed();
            if (eventually != null) {
                eventually.tryFail(DOWN);
            }
            return Future.failedFuture(DOWN);
        }
        Future<Response> answer = connection.send(request);
        if (eventually != null) {
            answer.onComplete(result -> RedisScript.settle(eventually, result));
        }
        return answer.timeout(budgetMillis, TimeUnit.MILLISECONDS).onComplete(result -> {
            if (result.failed()) {
                stats.callFailed();
            }
            if (!(result.cause() instanceof java.util.concurrent.TimeoutException)) {
                breaker.answered(); // an error reply is an answer too
            } else if (breaker.unanswered()) {
                context.runOnContext(v -> unanswered(connection));
            }
        });
    }

    /**
     * Calls on {@code connection} went unanswered past their budget often enough in a row to open
     * the breaker: the link reconnects as after any outage, on a new client. The old connection is
     * left open for {@link #DRAIN} so that answers still owed on it arrive, should Redis wake.
     */
    private void unanswered(RedisConnection connection) {
        if (commands != connection) {
            return; // already down, or another connection since
        }
        down(generation, new RedisUnavailable(LinkBreaker.FAILURES_TO_OPEN + " calls in a row unanswered within "
                + budgetMillis + " ms"));
        Redis stale = replaceClient();
        vertx.setTimer(DRAIN.toMillis(), id -> stale.close());
    }

    /**
     * Makes a new client and returns the old one, which closing closes every connection it pooled
     * (one that stopped answering included, which closing it alone would hand back to the pool).
     */
    private Redis replaceClient() {
        Redis stale = client;
        client = Redis.createClient(vertx, options);
        return stale;
    }

    /** A store decided a request on this replica's own state, as Redis could not answer in time. */
    public void decidedLocally() {
        stats.decidedLocally();
    }

    /** How the link has fared since it was made, for readiness and metrics. */
    public RedisHealth health() {
        return stats.health(isUp(), presence.replicasSeen());
    }

    /** Runs {@code task} on the link's event loop after {@code delay}, whether Redis is up or not. */
    void later(Duration delay, Runnable task) {
        if (!closed) {
            vertx.setTimer(Math.max(1, delay.toMillis()), id -> task.run());
        }
    }

    /** {@code reply}, completed on {@code caller} (the context a request runs on): see {@link CallerContext}. */
    public static <T> Future<T> backOn(Context caller, Future<T> reply) {
        return CallerContext.backOn(caller, reply);
    }

    private void connect() {
        if (closed) {
            return;
        }
        long attempt = ++generation;
        // A Redis that accepts connections and never answers (stopped, say) would hold this attempt for good.
        vertx.setTimer(CONNECT_ATTEMPT_LIMIT_MS, id -> {
            if (attempt == generation && commands == null) {
                down(attempt, new RedisUnavailable("no answer to connect within " + CONNECT_ATTEMPT_LIMIT_MS + " ms"));
                replaceClient().close();
            }
        });
        client.connect().compose(sub -> {
            if (attempt != generation) {
                sub.close(); // this attempt was given up meanwhile
                return Future.failedFuture("superseded");
            }
            subscriber = sub;
            watch(sub, attempt);
            sub.handler(channels::onPush);
            return client.connect();
        }).compose(cmd -> {
            watch(cmd, attempt);
            if (attempt != generation) {
                cmd.close();
                return Future.failedFuture("superseded");
            }
            return channels.subscribeAll(subscriber).map(cmd);
        }).onComplete(result -> {
            if (attempt != generation || closed) {
                // An error on one of its connections, or close(), overtook this attempt.
                if (result.succeeded()) {
                    result.result().close();
                }
                return;
            }
            if (result.failed()) {
                down(attempt, result.cause());
                return;
            }
            probed = result.result();
            probe(probed, attempt);
        });
    }

    /**
     * Pings a new connection until enough answers in a row within the budget close the breaker;
     * a probe left unanswered takes the link down again, as part of the same outage.
     */
    private void probe(RedisConnection connection, long attempt) {
        connection.send(Request.cmd(Command.PING)).timeout(budgetMillis, TimeUnit.MILLISECONDS).onComplete(result -> {
            context.runOnContext(v -> {
                if (attempt != generation || closed) {
                    return; // down() overtook the probe and closed the connection
                }
                if (result.failed()) {
                    down(attempt, new RedisUnavailable("probe unanswered within " + budgetMillis + " ms"));
                    replaceClient().close();
                } else if (breaker.probeAnswered()) {
                    up(connection);
                } else {
                    vertx.setTimer(PROBE_EVERY_MS, id -> probe(connection, attempt));
                }
            });
        });
    }

    private void up(RedisConnection connection) {
        probed = null;
        commands = connection;
        stats.outageEnded();
        if (outageLogged) {
            log.info("Redis at {} is reachable again; sharing router state again", where);
            outageLogged = false;
        }
        firstAttempt.countDown();
        presence.beat();
        for (Runnable listener : upListeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.warn("A Redis reconnect listener failed: {}", e.toString());
            }
        }
    }

    private void watch(RedisConnection connection, long attempt) {
        connection.exceptionHandler(e -> context.runOnContext(v -> down(attempt, e)));
        connection.endHandler(v -> context.runOnContext(w -> down(attempt, new RedisUnavailable("connection closed"))));
    }

    /** Marks the link down (once per connection attempt), logs the outage once, and retries later. */
    private void down(long attempt, Throwable reason) {
        if (attempt != generation || closed) {
            return;
        }
        generation++;
        breaker.lost();
        commands = null;
        closeQuietly(probed);
        probed = null;
        closeQuietly(subscriber);
        subscriber = null;
        if (!outageLogged) {
            stats.outageBegan(clock.millis());
            log.warn("Redis at {} is unreachable ({}); serving on each replica's local state and reconnecting",
                    where, describe(reason));
            outageLogged = true;
        }
        firstAttempt.countDown();
        vertx.setTimer(breaker.retryWait().toMillis(), id -> connect());
    }

    private static String describe(Throwable reason) {
        return reason.getMessage() == null ? reason.getClass().getSimpleName() : reason.getMessage();
    }

    private static void closeQuietly(RedisConnection connection) {
        if (connection != null) {
            connection.close();
        }
    }

    /** Closes the connections and the link's event loop; waits a few seconds at most. */
    @Override
    public void close() {
        if (isUp()) {
            presence.leave();
        }
        closed = true;
        try {
            context.runOnContext(v -> {
                RedisConnection open = commands;
                commands = null;
                closeQuietly(open);
                closeQuietly(subscriber);
                subscriber = null;
            });
            client.close().await(5, TimeUnit.SECONDS);
            vertx.close().await(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("Redis link did not close cleanly: {}", e.toString());
        }
    }
}
