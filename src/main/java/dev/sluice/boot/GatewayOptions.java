package dev.sluice.boot;

import dev.sluice.call.CallListenerFactory;
import dev.sluice.config.SluiceConfig;
import dev.sluice.router.RouterEvents;
import dev.sluice.router.ThreadLocalRandomSource;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.time.Backoff;
import dev.sluice.time.TimeSource;
import java.time.Duration;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * How to start a gateway: its config and address, and what production takes from the system
 * (time, randomness, cores) which tests replace.
 *
 * @param env        the environment {@code os.environ/NAME} reads, also for models added at run time
 * @param port       0 takes a free port
 * @param random     the randomness of shuffles and jitter
 * @param time       the one clock and ticker every part of the gateway reads
 * @param eventLoops how many event loops serve requests
 * @param events     told of every routing decision, besides the log and the metrics
 * @param backoff    the waits before a deployment is tried again in place
 * @param callListeners makes one more listener for each model call, for a test that watches them
 */
public record GatewayOptions(SluiceConfig config, String host, int port, Map<String, String> env, RandomGenerator random,
        TimeSource time, int eventLoops, RouterEvents events, Backoff backoff, Duration redisCallBudget,
        CallListenerFactory callListeners) {

    public GatewayOptions {
        env = Map.copyOf(env);
    }

    /** Production defaults: all cores, thread-local randomness, the system's time. */
    public static GatewayOptions of(SluiceConfig config, String host, int port, Map<String, String> env) {
        return new GatewayOptions(config, host, port, env, new ThreadLocalRandomSource(), TimeSource.system(),
                Runtime.getRuntime().availableProcessors(), RouterEvents.NONE, Backoff.DEFAULT, RedisLink.DEFAULT_CALL_BUDGET,
                CallListenerFactory.NONE);
    }

    public GatewayOptions withRandom(RandomGenerator random) {
        return new GatewayOptions(config, host, port, env, random, time, eventLoops, events, backoff, redisCallBudget, callListeners);
    }

    public GatewayOptions withTime(TimeSource time) {
        return new GatewayOptions(config, host, port, env, random, time, eventLoops, events, backoff, redisCallBudget, callListeners);
    }

    public GatewayOptions withEventLoops(int eventLoops) {
        return new GatewayOptions(config, host, port, env, random, time, eventLoops, events, backoff, redisCallBudget, callListeners);
    }

    public GatewayOptions withEvents(RouterEvents events) {
        return new GatewayOptions(config, host, port, env, random, time, eventLoops, events, backoff, redisCallBudget, callListeners);
    }

    public GatewayOptions withBackoff(Backoff backoff) {
        return new GatewayOptions(config, host, port, env, random, time, eventLoops, events, backoff, redisCallBudget, callListeners);
    }

    /**
     * How long one Redis call may take before the gateway goes on without Redis (default 50 ms); roomier for a busy
     * test machine. A config that sets {@code router_settings.redis_socket_timeout} overrides it.
     */
    public GatewayOptions withRedisCallBudget(Duration budget) {
        return new GatewayOptions(config, host, port, env, random, time, eventLoops, events, backoff, budget, callListeners);
    }

    public GatewayOptions withCallListeners(CallListenerFactory callListeners) {
        return new GatewayOptions(config, host, port, env, random, time, eventLoops, events, backoff, redisCallBudget, callListeners);
    }
}
