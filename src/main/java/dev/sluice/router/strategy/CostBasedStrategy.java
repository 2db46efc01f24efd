package dev.sluice.router.strategy;

import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.router.strategy.CapacityCheck.Fit;
import dev.sluice.state.UsageWindows;
import java.time.Clock;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * {@code cost-based-routing}: among the deployments with room for the request under their
 * {@code tpm}/{@code rpm} this minute (see {@link CapacityCheck}), the cheapest by input
 * plus output price per token, as the {@link ModelCatalog} knows it (the deployment's own
 * {@code input_cost_per_token}/{@code output_cost_per_token} first, then the bundled table).
 *
 * <p>A deployment whose price is unknown sorts after every priced one; LiteLLM gives it $5
 * per input and per output token, which has the same effect. Equal prices are broken at
 * random, where LiteLLM takes the first in list order. When none has room, a
 * {@link Pick.NoCapacity} names each one's usage and limit.
 */
public final class CostBasedStrategy implements RoutingStrategy {
    public static final String NAME = "cost-based-routing";

    private final ModelCatalog catalog;
    private final CapacityCheck capacity;
    private final Clock clock;
    private final RandomGenerator random;

    public CostBasedStrategy(ModelCatalog catalog, UsageWindows usage, Clock clock, RandomGenerator random) {
        this.catalog = catalog;
        this.capacity = new CapacityCheck(usage);
        this.clock = clock;
        this.random = random;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pick pick(List<Deployment> candidates, RequestFacts request) {
        return capacity.pick(candidates, request, clock.instant(), this::cheapest);
    }

    private Deployment cheapest(List<Fit> fits) {
        double[] price = new double[fits.size()];
        for (int i = 0; i < price.length; i++) {
            price[i] = catalog.prices(fits.get(i).deployment())
                    .map(ModelCatalog.Prices::perTokenPair)
                    .orElse(Double.POSITIVE_INFINITY);
        }
        return fits.get(LowestScore.pick(price, 0, random)).deployment();
    }
}
