package dev.sluice.ops.health;

import dev.sluice.config.Deployment;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * One round of probes: each deployment's result, in the order the deployments are served.
 *
 * @param checkedAt when the round's probes were sent
 */
public record HealthReport(Instant checkedAt, List<ProbeResult> results) {

    public HealthReport {
        results = List.copyOf(results);
    }

    /** The same round, keeping only the deployments {@code shown} accepts. */
    public HealthReport only(Predicate<Deployment> shown) {
        return new HealthReport(checkedAt, results.stream().filter(result -> shown.test(result.deployment())).toList());
    }

    public List<ProbeResult> healthy() {
        return results.stream().filter(ProbeResult::healthy).toList();
    }

    public List<ProbeResult> unhealthy() {
        return results.stream().filter(result -> !result.healthy()).toList();
    }
}
