package dev.sluice.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A deployment's own values for what the router settings otherwise decide about one attempt on it.
 *
 * @param timeout       per-attempt deadline for a non-streaming call
 * @param streamTimeout longest wait between two chunks of a stream
 * @param maxRetries    {@code max_retries} as written (read, not yet acted on)
 * @param cooldownTime  {@code cooldown_time}: how long this deployment sits out when benched
 */
public record AttemptParams(Optional<Duration> timeout, Optional<Duration> streamTimeout, OptionalInt maxRetries,
        Optional<Duration> cooldownTime) {}
