package dev.sluice.ops.health;

import dev.sluice.config.Deployment;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.ModelRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code health_check_bench_unhealthy}: a deployment failing its background probe is benched
 * through {@link Cooldowns} (so routing, Redis sharing and the bench events are the ones every
 * bench has), and the bench is lifted by the first probe that passes.
 *
 * <p>A bench cannot be open-ended (a store holds an end), so each failing probe benches until
 * just past the next round's verdict, {@code interval + 2 × timeout} from now, and the next
 * failing probe moves the end on. A bench this class did not set, or that traffic lengthened
 * since, is not lifted: it runs its course as any other bench does.
 */
final class ProbeBench {
    private final Cooldowns cooldowns;
    private final ModelRegistry models;
    private final Clock clock;
    private final Duration benchFor;
    /** The bench end each deployment benched here was given, by deployment id. */
    private final Map<String, Instant> benchEnds = new ConcurrentHashMap<>();

    ProbeBench(Cooldowns cooldowns, ModelRegistry models, Clock clock, Duration interval, Duration probeTimeout) {
        this.cooldowns = cooldowns;
        this.models = models;
        this.clock = clock;
        this.benchFor = interval.plus(probeTimeout.multipliedBy(2));
    }

    /** Benches or lifts the probed deployment as its result says; returns the result with its bench end. */
    ProbeResult apply(ProbeResult result) {
        Deployment deployment = result.deployment();
        if (result.healthy()) {
            Instant end = benchEnds.remove(deployment.id());
            if (end != null) {
                cooldowns.lift(deployment, end);
            }
            return result;
        }
        Optional<ModelGroup> group = models.current().find(deployment.modelName());
        // Unclassified (it could not even be called) or no longer served: nothing routes to it through a bench.
        if (result.failure().isEmpty() || group.isEmpty()) {
            return result;
        }
        // Whole milliseconds, so the end reads back equal from a store that keeps milliseconds (Redis).
        Instant until = clock.instant().plus(benchFor).truncatedTo(ChronoUnit.MILLIS);
        Optional<Instant> holds = cooldowns.benchUntil(group.get(), deployment, result.failure().get(), until);
        if (holds.isEmpty()) {
            return result;
        }
        if (holds.get().equals(until)) {
            benchEnds.put(deployment.id(), until);
        } else {
            benchEnds.remove(deployment.id());
        }
        return result.benched(holds.get());
    }
}
