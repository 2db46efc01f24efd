package dev.sluice.accounts.spend;

import dev.sluice.catalog.ModelCatalog;
import dev.sluice.catalog.ModelCatalog.Prices;
import dev.sluice.config.Deployment;
import dev.sluice.config.UnitPrices;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What a call cost: its prompt tokens at the deployment's input price (those read from or
 * written to a vendor's prompt cache at the cache rates) plus its completion tokens at its
 * output price, the prices being the deployment's
 * {@code input_cost_per_token}/{@code output_cost_per_token}, else the bundled table's for
 * its {@code base_model} or its model (see {@link ModelCatalog#prices}), else, through
 * {@link #chargedAs}, the table's for the model its answer named. A deployment with no known
 * price costs 0, and the cost says so, for the caller to log: the call is not free, only
 * unpriced.
 *
 * <p>The sum is worked in decimal from the prices as written, so 1000 tokens at 0.0000025
 * cost exactly 0.0025. Stateless and thread-safe.
 */
public final class CallCost {

    /**
     * @param dollars US dollars
     * @param priced  false when the deployment has no known price, so {@code dollars} is 0
     *                for want of one
     */
    public record Cost(double dollars, boolean priced) {
        /** The cost of a call on a deployment with no known price. */
        public static final Cost UNPRICED = new Cost(0, false);
    }

    private final ModelCatalog catalog;

    public CallCost(ModelCatalog catalog) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    /** Whether calls of {@code deployment} have a known price, so that their tokens (or other units) decide their cost. */
    public boolean priced(Deployment deployment) {
        return catalog.prices(deployment).isPresent() || deployment.params().prices().unitPrices().any();
    }

    /**
     * What {@code usage} and {@code units} cost on {@code deployment}: the tokens at its token
     * prices, each other unit at its own price ({@code output_cost_per_image}, ...). A unit
     * with no price written costs nothing.
     */
    public Cost of(Deployment deployment, TokenUsage usage, BilledUnits units) {
        Cost tokens = of(deployment, usage);
        UnitPrices prices = deployment.params().prices().unitPrices();
        if (!prices.any()) {
            return tokens;
        }
        BigDecimal unitDollars = times(prices.outputCostPerImage(), units.images())
                .add(times(prices.inputCostPerPixel(), units.pixels()))
                .add(times(prices.inputCostPerCharacter(), units.characters()))
                .add(times(prices.inputCostPerSecond(), units.seconds()))
                .add(times(prices.inputCostPerQuery(), units.queries()));
        return new Cost(BigDecimal.valueOf(tokens.dollars()).add(unitDollars).doubleValue(), true);
    }

    private static BigDecimal times(OptionalDouble price, double units) {
        return price.isPresent() ? BigDecimal.valueOf(price.getAsDouble()).multiply(BigDecimal.valueOf(units)) : BigDecimal.ZERO;
    }

    /**
     * The deployment a call is charged as. One with a price of its own is itself; one without
     * is priced by {@code answeredModel}, the model the upstream said answered (the
     * {@code model} of its answer), when the catalog knows that name: a deployment whose name
     * says nothing (a proxy's alias, a fine-tune) is then not counted as free.
     *
     * @param answeredModel as the answer named it; empty or null when it named none
     */
    public Deployment chargedAs(Deployment deployment, String answeredModel) {
        if (answeredModel == null || answeredModel.isBlank() || priced(deployment)) {
            return deployment;
        }
        Deployment answered = deployment.withBaseModel(answeredModel);
        return priced(answered) ? answered : deployment;
    }

    public Cost of(Deployment deployment, long promptTokens, long completionTokens) {
        atLeastZero("promptTokens", promptTokens);
        atLeastZero("completionTokens", completionTokens);
        return catalog.prices(deployment)
                .map(prices -> new Cost(dollars(prices, promptTokens, completionTokens), true))
                .orElse(Cost.UNPRICED);
    }

    /** What {@code usage} cost on {@code deployment}, cached prompt tokens at their own rates. */
    public Cost of(Deployment deployment, TokenUsage usage) {
        atLeastZero("promptTokens", usage.promptTokens());
        atLeastZero("completionTokens", usage.completionTokens());
        return catalog.prices(deployment)
                .map(prices -> new Cost(dollars(prices, usage), true))
                .orElse(Cost.UNPRICED);
    }

    static double dollars(Prices prices, TokenUsage usage) {
        long cached = usage.cacheReadTokens() + usage.cacheWriteTokens();
        long uncached = Math.max(0, usage.promptTokens() - cached);
        return BigDecimal.valueOf(prices.inputPerToken()).multiply(BigDecimal.valueOf(uncached))
                .add(BigDecimal.valueOf(prices.cacheReadPerToken()).multiply(BigDecimal.valueOf(usage.cacheReadTokens())))
                .add(BigDecimal.valueOf(prices.cacheWritePerToken()).multiply(BigDecimal.valueOf(usage.cacheWriteTokens())))
                .add(BigDecimal.valueOf(prices.outputPerToken()).multiply(BigDecimal.valueOf(usage.completionTokens())))
                .doubleValue();
    }

    static double dollars(Prices prices, long promptTokens, long completionTokens) {
        return BigDecimal.valueOf(prices.inputPerToken()).multiply(BigDecimal.valueOf(promptTokens))
                .add(BigDecimal.valueOf(prices.outputPerToken()).multiply(BigDecimal.valueOf(completionTokens)))
                .doubleValue();
    }

    private static void atLeastZero(String field, long tokens) {
        if (tokens < 0) {
            throw new IllegalArgumentException(field + ": " + tokens + " (expected: >= 0)");
        }
    }
}
