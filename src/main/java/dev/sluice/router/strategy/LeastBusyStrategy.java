package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import dev.sluice.router.signals.InFlightCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * {@code least-busy}: the deployment with the fewest calls open right now, streams
 * included, as counted by the {@link SignalRecorder}.
 *
 * <p>Where LiteLLM takes the first of equally idle deployments (so an idle group sends
 * everything to one), ties here are broken at random. A deployment with {@code weight: 0}
 * is a backup, as in {@code simple-shuffle}: it is chosen only when every candidate is one,
 * however busy the others are. It never refuses.
 */
public record LeastBusyStrategy(InFlightCounts inFlight, RandomGenerator random) implements RoutingStrategy {
    public static final String NAME = "least-busy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pick pick(List<Deployment> candidates, RequestFacts request) {
        List<Deployment> pool = withoutBackups(candidates);
        double[] open = new double[pool.size()];
        for (int i = 0; i < open.length; i++) {
            open[i] = inFlight.count(pool.get(i).id());
        }
        return Pick.of(pool.get(LowestScore.pick(open, 0, random)));
    }

    private static List<Deployment> withoutBackups(List<Deployment> candidates) {
        List<Deployment> primaries = new ArrayList<>(candidates.size());
        for (Deployment d : candidates) {
            if (!isBackup(d)) {
                primaries.add(d);
            }
        }
        return primaries.isEmpty() ? candidates : primaries;
    }

    private static boolean isBackup(Deployment d) {
        return d.params().weight().isPresent() && d.params().weight().getAsDouble() == 0;
    }
}
