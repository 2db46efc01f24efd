package dev.sluice.state;

import dev.sluice.failure.FailureClass;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Where benches and failure counts live: in process now, shared across replicas later. All
 * times come from the caller's clock, so the store itself never reads one. Safe to call from
 * any thread.
 */
public interface CooldownStore {

    /**
     * Counts one failure of {@code kind} for the deployment in the counting window that holds
     * {@code now} (a window opens at the first failure and lasts {@code window}) and returns
     * how many failures of that kind the window now holds.
     */
    int countFailure(String deploymentId, FailureClass kind, Instant now, Duration window);

    /** Benches the deployment until {@code until} (a later bench end never shortens to an earlier one). */
    void bench(String deploymentId, Instant until);

    /** When the deployment's bench ends, if it is benched at {@code now}. */
    Optional<Instant> benchedUntil(String deploymentId, Instant now);

    /** Forgets the deployment's bench and its failure counts. */
    void clear(String deploymentId);
}
