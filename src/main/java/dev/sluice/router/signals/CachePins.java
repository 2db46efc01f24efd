package dev.sluice.router.signals;

import java.time.Instant;
import java.util.Optional;

/**
 * Which deployment holds a conversation's cached prompt prefix, so the next turn goes back
 * to it while the provider's cache is warm. Times come from the caller's clock. Thread-safe.
 */
public interface CachePins {

    void pin(String prefixKey, String deploymentId, Instant until);

    Optional<String> pinned(String prefixKey, Instant now);
}
