package dev.sluice.router.signals;

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

    /**
     * Counts one failure like {@link #countFailure(String, FailureClass, Instant, Duration)},
     * for a caller that tolerates {@code allowed} failures. A store shared with other replicas
     * may learn the shared total only after it answered: when that total is over
     * {@code allowed} while the answer was not, it runs {@code crossedLater} once, on a thread
     * of its own, so the caller can bench then. A store of one process knows the total at once
     * and never runs it.
     */
    default int countFailure(String deploymentId, FailureClass kind, Instant now, Duration window, int allowed,
            Runnable crossedLater) {
        return countFailure(deploymentId, kind, now, window);
    }

    /** Benches the deployment until {@code until} (a later bench end never shortens to an earlier one). */
    void bench(String deploymentId, Instant until);

    /** When the deployment's bench ends, if it is benched at {@code now}. */
    Optional<Instant> benchedUntil(String deploymentId, Instant now);

    /**
     * Whether the deployment has failures counting toward a bench in a window that holds
     * {@code now} (a window lasts {@code window} from its first failure). A store that counts
     * nothing says no.
     */
    default boolean counting(String deploymentId, Instant now, Duration window) {
        return false;
    }

    /** Forgets the deployment's bench and its failure counts. */
    void clear(String deploymentId);
}
