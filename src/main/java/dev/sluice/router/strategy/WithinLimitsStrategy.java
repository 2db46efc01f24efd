package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import dev.sluice.router.signals.UsageWindows;
import dev.sluice.router.strategy.CapacityCheck.Fit;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A strategy that keeps deployments within their {@code tpm}/{@code rpm}: the
 * {@link CapacityCheck} narrows the candidates to those with room this minute (or says why
 * none has), and the strategy ranks only those. The usage-, latency- and cost-based
 * strategies are the ones.
 */
abstract sealed class WithinLimitsStrategy implements RoutingStrategy
        permits CostBasedStrategy, LatencyBasedStrategy, UsageBasedStrategy {
    private final String name;
    private final CapacityCheck capacity;
    private final Clock clock;
    /** Breaks ties between deployments ranked the same. */
    final RandomGenerator random;

    WithinLimitsStrategy(String name, UsageWindows usage, Clock clock, RandomGenerator random) {
        this.name = name;
        this.capacity = new CapacityCheck(usage);
        this.clock = clock;
        this.random = random;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final boolean keepsWithinLimits() {
        return true;
    }

    @Override
    public final Pick pick(List<Deployment> candidates, RequestFacts request) {
        Instant now = clock.instant();
        return capacity.pick(candidates, request, now, fits -> choose(fits, request, now));
    }

    /** The deployment to call among {@code fits}, the candidates with room, in their order (never empty). */
    abstract Deployment choose(List<Fit> fits, RequestFacts request, Instant now);
}
