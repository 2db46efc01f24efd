package dev.sluice.accounts;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.config.AuthFailureSettings;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Unknown keys presented from each client address, counted in fixed windows, so an address
 * trying made-up keys stops costing the store a read each: once it has presented
 * {@link AuthFailureSettings#limit} unknown keys in a window, keys from it that would need the
 * store are answered 429 until the window ends. Keys already held by the key cache are never
 * refused here, so callers whose keys are in use keep working even when they share an address
 * (a load balancer's, say) with the one failing.
 *
 * <p>Memory is bounded: at most {@link #MAX_ADDRESSES} addresses are counted, each forgotten a
 * window after its last failure. Time is the {@code nanoTime} given. Thread-safe.
 */
final class AuthThrottle {
    static final int MAX_ADDRESSES = 100_000;

    private final AuthFailureSettings settings;
    private final LongSupplier nanoTime;
    private final Cache<String, Window> windows;

    /** One address's failures since {@code start}. */
    private static final class Window {
        final long start;
        int failures;

        Window(long start) {
            this.start = start;
        }
    }

    AuthThrottle(AuthFailureSettings settings, LongSupplier nanoTime) {
        this.settings = settings;
        this.nanoTime = nanoTime;
        this.windows = Caffeine.newBuilder()
                .maximumSize(MAX_ADDRESSES)
                .expireAfterAccess(settings.window())
                .ticker(nanoTime::getAsLong)
                .build();
    }

    /** How long {@code client} must wait before a key of it is read from the store; empty when it need not. */
    Optional<Duration> refused(String client) {
        if (!settings.on() || client == null) {
            return Optional.empty();
        }
        Window window = windows.getIfPresent(client);
        if (window == null) {
            return Optional.empty();
        }
        synchronized (window) {
            long left = window.start + settings.window().toNanos() - nanoTime.getAsLong();
            return left > 0 && window.failures >= settings.limit() ? Optional.of(Duration.ofNanos(left)) : Optional.empty();
        }
    }

    /** {@code client} presented a key the store does not hold. */
    void failed(String client) {
        if (!settings.on() || client == null) {
            return;
        }
        long now = nanoTime.getAsLong();
        Window window = windows.asMap().compute(client, (address, held) ->
                held == null || now - held.start >= settings.window().toNanos() ? new Window(now) : held);
        synchronized (window) {
            window.failures++;
        }
    }
}
