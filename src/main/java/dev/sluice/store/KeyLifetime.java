package dev.sluice.store;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * When a key was made, last changed, and stops being accepted.
 *
 * @param createdAt when the key was made
 * @param updatedAt when the key was last changed; its creation time until then
 * @param expiresAt after this instant the key is refused; empty for a key that never expires
 */
public record KeyLifetime(Instant createdAt, Instant updatedAt, Optional<Instant> expiresAt) {
    public KeyLifetime {
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
        updatedAt = Columns.micros(Objects.requireNonNull(updatedAt, "updatedAt"));
        expiresAt = Columns.micros(Objects.requireNonNull(expiresAt, "expiresAt"));
    }
}
