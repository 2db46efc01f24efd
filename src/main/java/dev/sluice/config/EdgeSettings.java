package dev.sluice.config;

import dev.sluice.net.Cidr;
import dev.sluice.wire.JsonLimits;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * How much of the gateway one client may hold at the HTTP edge.
 *
 * @param requestHeadTimeout      {@code request_head_timeout_seconds} (default 30): a request head not whole
 *                                this long after its connection opened, or after its first byte on a
 *                                kept-alive connection, is answered 408 and the connection closed
 * @param maxOpenConnections      {@code max_open_connections}: connections past this many, over the whole
 *                                process, are closed as they are accepted; empty for the default, sized to the heap
 *                                ({@link EdgeCapacity})
 * @param maxBufferedRequestBytes {@code max_buffered_request_mb}: request body bytes all calls together may
 *                                hold; empty for the default, an eighth of the heap (a body costs several times its size while parsed)
 * @param connections             the per-address cap, the proxies trusted to name the client, and how long an
 *                                idle kept-alive connection stays open
 * @param requestBodyTimeout      {@code request_body_timeout_seconds} (default 15): a request body that sends no
 *                                byte for this long is answered 408 and its connection closed
 * @param json                    {@code max_json_depth} and {@code max_json_tokens}: how large a JSON body may be once parsed
 * @param maxCallsInFlight        {@code global_max_parallel_requests}: calls the gateway serves at once; past it a call
 *                                is answered 503 with {@code Retry-After}; empty for the default, sized to the heap
 * @param livenessExitAfter       {@code liveness_exit_after_seconds} (default 30): how long the process may fail
 *                                liveness (an event loop blocked, the collector thrashing) before it exits; 0 never
 */
public record EdgeSettings(Duration requestHeadTimeout, OptionalInt maxOpenConnections, OptionalLong maxBufferedRequestBytes,
        ConnectionSettings connections, Duration requestBodyTimeout, JsonLimits json, OptionalInt maxCallsInFlight,
        Duration livenessExitAfter) {
    public static final Duration DEFAULT_REQUEST_HEAD_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_REQUEST_BODY_TIMEOUT = Duration.ofSeconds(15);
    public static final Duration DEFAULT_LIVENESS_EXIT_AFTER = Duration.ofSeconds(30);
    public static final EdgeSettings DEFAULTS = new EdgeSettings(DEFAULT_REQUEST_HEAD_TIMEOUT, OptionalInt.empty(),
            OptionalLong.empty(), ConnectionSettings.DEFAULTS, DEFAULT_REQUEST_BODY_TIMEOUT, JsonLimits.DEFAULTS,
            OptionalInt.empty(), DEFAULT_LIVENESS_EXIT_AFTER);

    /**
     * @param maxPerAddress    {@code max_connections_per_ip} (default 256): connections one client address may hold open
     * @param trustedProxies   {@code trusted_proxies}: networks whose connections are a load balancer's; their
     *                         {@code X-Forwarded-For} names the client, and they are not held to the per-address cap
     * @param keepAliveTimeout {@code keep_alive_timeout_seconds} (default 10): a connection with no request under way
     *                         is closed this long after its last answer ended
     */
    public record ConnectionSettings(int maxPerAddress, List<Cidr> trustedProxies, Duration keepAliveTimeout) {
        public static final int DEFAULT_MAX_PER_ADDRESS = 256;
        public static final Duration DEFAULT_KEEP_ALIVE_TIMEOUT = Duration.ofSeconds(10);
        public static final ConnectionSettings DEFAULTS = new ConnectionSettings(DEFAULT_MAX_PER_ADDRESS, List.of(),
                DEFAULT_KEEP_ALIVE_TIMEOUT);

        public ConnectionSettings {
            trustedProxies = List.copyOf(trustedProxies);
        }
    }

    /** The body budget in bytes: the setting, else an eighth of the most heap this JVM may use. */
    public long bufferedRequestBudget() {
        return maxBufferedRequestBytes.orElse(Runtime.getRuntime().maxMemory() / 8);
    }

    /** The connection bound: the setting, else what the heap holds ({@link EdgeCapacity#openConnections}). */
    public int openConnectionsBound() {
        return maxOpenConnections.orElse(EdgeCapacity.openConnections(Runtime.getRuntime().maxMemory()));
    }

    /** The bound on calls in flight: the setting, else what the heap holds ({@link EdgeCapacity#callsInFlight}). */
    public int callsInFlightBound() {
        return maxCallsInFlight.orElse(EdgeCapacity.callsInFlight(Runtime.getRuntime().maxMemory()));
    }
}
