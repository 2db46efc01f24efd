package dev.sluice.router.strategy;

import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.router.signals.UsageWindows;
import dev.sluice.router.strategy.CapacityCheck.Fit;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
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
 *
 * <p>Design notes. A deployment's price does not change while it is served (its own config,
 * else the bundled table), yet a pick reads it for every candidate, so each deployment's
 * price is asked of the catalog once and kept. It is kept with the {@link Deployment} it was
 * worked out for and used only for that same object: a deployment added at run time
 * ({@code /model/new}) is a new object, so it is priced afresh even under an id seen before,
 * and is never given another's price. What is kept is one entry per deployment id ever
 * picked among, which only deployments added at run time make grow.
 */
public final class CostBasedStrategy extends WithinLimitsStrategy {
    public static final String NAME = "cost-based-routing";

    private final ModelCatalog catalog;
    /** Each deployment's {@link #perTokenPair}, by id. */
    private final ConcurrentMap<String, Priced> prices = new ConcurrentHashMap<>();

    public CostBasedStrategy(ModelCatalog catalog, UsageWindows usage, Clock clock, RandomGenerator random) {
        super(NAME, usage, clock, random);
        this.catalog = catalog;
    }

    /** The cheapest per token pair; equal prices at random. */
    @Override
    Deployment choose(List<Fit> fits, RequestFacts request, Instant now) {
        double[] price = new double[fits.size()];
        for (int i = 0; i < price.length; i++) {
            price[i] = perTokenPair(fits.get(i).deployment());
        }
        return fits.get(LowestScore.pick(price, 0, random)).deployment();
    }

    /** Input plus output price per token as the catalog knows it; {@code +Infinity} when unknown. */
    private double perTokenPair(Deployment deployment) {
        Priced kept = prices.get(deployment.id());
        if (kept != null && kept.deployment() == deployment) {
            return kept.perTokenPair();
        }
        double perTokenPair = catalog.prices(deployment)
                .map(ModelCatalog.Prices::perTokenPair)
                .orElse(Double.POSITIVE_INFINITY);
        prices.put(deployment.id(), new Priced(deployment, perTokenPair));
        return perTokenPair;
    }

    /** A deployment's price, with the very deployment object it was worked out for. */
    private record Priced(Deployment deployment, double perTokenPair) {}
}
