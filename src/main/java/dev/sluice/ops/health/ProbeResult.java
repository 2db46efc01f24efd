package dev.sluice.ops.health;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What one probe of one deployment found.
 *
 * @param deployment   the deployment probed
 * @param failure      how the probe failed, classified as a routed call's failure would be; empty
 *                     when it passed, or when the deployment could not be called at all
 * @param error        a short, secret-free sentence saying why it is unhealthy (the upstream's
 *                     status and message, {@code connection refused}, {@code timed out after 5 s});
 *                     empty when it passed
 * @param benchedUntil when the bench this failed probe set ends ({@code health_check_bench_unhealthy})
 */
public record ProbeResult(Deployment deployment, Optional<Failure> failure, String error, Optional<Instant> benchedUntil) {

    public ProbeResult {
        Objects.requireNonNull(deployment, "deployment");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(benchedUntil, "benchedUntil");
    }

    static ProbeResult healthy(Deployment deployment) {
        return new ProbeResult(deployment, Optional.empty(), "", Optional.empty());
    }

    static ProbeResult failed(Deployment deployment, Failure failure, String error) {
        return new ProbeResult(deployment, Optional.of(failure), error, Optional.empty());
    }

    /** A deployment Sluice could not even lay a call out for (no base URL, no adapter). */
    static ProbeResult uncallable(Deployment deployment, String error) {
        return new ProbeResult(deployment, Optional.empty(), error, Optional.empty());
    }

    public boolean healthy() {
        return error.isEmpty();
    }

    ProbeResult benched(Instant until) {
        return new ProbeResult(deployment, failure, error, Optional.of(until));
    }
}
