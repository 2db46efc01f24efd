package dev.sluice.config;

import java.time.Duration;
import java.util.Optional;

/**
 * How long a call may take.
 *
 * @param timeout          {@code timeout}: how long a call may take (default 600 s)
 * @param streamTimeout    {@code stream_timeout}, when set
 * @param maxClientTimeout Sluice's own {@code max_client_timeout}: the longest {@code timeout} a
 *                         caller may ask for; longer is cut to it. Unset, it is {@link #timeout()}
 */
public record TimeoutSettings(Duration timeout, Optional<Duration> streamTimeout, Duration maxClientTimeout) {

    /**
     * The same settings with {@code replaced} as the timeout; a {@code max_client_timeout} the
     * config leaves unset ({@code capFollows}) follows it, as it does at start-up.
     */
    public TimeoutSettings withTimeout(Duration replaced, boolean capFollows) {
        return new TimeoutSettings(replaced, streamTimeout, capFollows ? replaced : maxClientTimeout);
    }
}
