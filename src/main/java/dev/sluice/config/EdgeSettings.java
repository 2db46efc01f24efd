package dev.sluice.config;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * How much of the gateway one client may hold at the HTTP edge.
 *
 * @param requestHeadTimeout      {@code request_head_timeout_seconds} (default 30): a request head not whole
 *                                this long after its connection opened, or after its first byte on a
 *                                kept-alive connection, is answered 408 and the connection closed
 * @param maxOpenConnections      {@code max_open_connections} (default 10000): connections past this many,
 *                                over the whole process, are closed as they are accepted
 * @param maxBufferedRequestBytes {@code max_buffered_request_mb}: request body bytes all calls together may
 *                                hold; empty for the default, an eighth of the heap (a body costs several times its size while parsed)
 */
public record EdgeSettings(Duration requestHeadTimeout, int maxOpenConnections, OptionalLong maxBufferedRequestBytes) {
    public static final Duration DEFAULT_REQUEST_HEAD_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_OPEN_CONNECTIONS = 10_000;
    public static final EdgeSettings DEFAULTS = new EdgeSettings(DEFAULT_REQUEST_HEAD_TIMEOUT, DEFAULT_MAX_OPEN_CONNECTIONS,
            OptionalLong.empty());

    /** The body budget in bytes: the setting, else an eighth of the most heap this JVM may use. */
    public long bufferedRequestBudget() {
        return maxBufferedRequestBytes.orElse(Runtime.getRuntime().maxMemory() / 8);
    }
}
