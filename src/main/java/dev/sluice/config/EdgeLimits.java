package dev.sluice.config;

import java.time.Duration;

/**
 * What the HTTP edge allows a connection before any route runs.
 *
 * @param requestHeadTimeout {@code request_head_timeout_seconds} (default 30): a request head (request line and
 *                           headers) not complete this long after its first byte is answered 408 and the
 *                           connection closed, however slowly its bytes keep arriving
 * @param maxOpenConnections {@code max_open_connections} (default 10,000): open client connections across the
 *                           whole process; one more is closed at once
 */
public record EdgeLimits(Duration requestHeadTimeout, int maxOpenConnections) {
    public static final Duration DEFAULT_REQUEST_HEAD_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_OPEN_CONNECTIONS = 10_000;
    public static final EdgeLimits DEFAULTS = new EdgeLimits(DEFAULT_REQUEST_HEAD_TIMEOUT, DEFAULT_MAX_OPEN_CONNECTIONS);
}
