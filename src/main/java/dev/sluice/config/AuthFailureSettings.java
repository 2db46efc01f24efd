package dev.sluice.config;

import java.time.Duration;

/**
 * How failed authentication from one client address is slowed down, from
 * {@code general_settings}.
 *
 * @param limit  Sluice's {@code auth_failure_limit} (default 20; 0 turns it off): unknown keys one
 *               address may present in a window before the rest of the window's keys that need
 *               the store are answered 429 without reading it
 * @param window Sluice's {@code auth_failure_window_seconds} (default 10 s)
 */
public record AuthFailureSettings(int limit, Duration window) {

    public static final int DEFAULT_LIMIT = 20;
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);
    public static final AuthFailureSettings DEFAULTS = new AuthFailureSettings(DEFAULT_LIMIT, DEFAULT_WINDOW);

    /** Whether failures are counted at all. */
    public boolean on() {
        return limit > 0;
    }
}
