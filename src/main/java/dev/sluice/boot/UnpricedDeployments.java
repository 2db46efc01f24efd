package dev.sluice.boot;

import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.config.ModelMode;
import dev.sluice.config.WildcardPattern;
import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.router.ModelRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * The deployments Sluice cannot price: no {@code input_cost_per_token} or
 * {@code output_cost_per_token} of their own, and neither their model nor their
 * {@code base_model} in the model catalog. Their calls are counted at 0 unless the model their
 * answer names has a price, so a budget would not see them: they are named in one warning at
 * start-up (and when one is added through the model API) and shown by gauges that follow the
 * deployments served now.
 */
final class UnpricedDeployments {
    private UnpricedDeployments() {}

    /**
     * Warns about the unpriced deployments among those served at start-up, and about each one
     * added or changed through the model API later, and adds the gauges that follow them.
     */
    static void report(GatewayMetrics metrics, ModelRegistry models, ModelCatalog catalog) {
        warning(models.deployments(), catalog).ifPresent(line -> LoggerFactory.getLogger(UnpricedDeployments.class)
                .warn("config.deployments_unpriced {}", line));
        models.whenChanged(deployment -> warning(List.of(deployment), catalog).ifPresent(line ->
                LoggerFactory.getLogger(UnpricedDeployments.class).warn("models.deployment_unpriced {}", line)));
        metrics.gauge("sluice_unpriced_deployments", "Deployments served now that have no price: no cost of their own and"
                + " no model or base_model in the model catalog. Their calls count as 0 toward spend and budgets unless"
                + " their answer names a priced model.", () -> (double) unpriced(models.deployments(), catalog).size());
        metrics.gauge("sluice_deployment_unpriced", "1 for each deployment served now that has no price.",
                () -> perDeployment(unpriced(models.deployments(), catalog)), "model_group", "deployment");
    }

    /** One line naming every deployment of {@code deployments} that has no price, or empty when all have one. */
    static Optional<String> warning(List<Deployment> deployments, ModelCatalog catalog) {
        List<Deployment> unpriced = unpriced(deployments, catalog);
        if (unpriced.isEmpty()) {
            return Optional.empty();
        }
        List<String> named = unpriced.stream()
                .map(d -> d.id() + " (model_name " + d.modelName() + ", model " + d.params().model() + ")").toList();
        return Optional.of("Sluice has no price for " + unpriced.size() + " deployment(s), so their calls count as 0 toward"
                + " spend and budgets unless their answer names a model it knows: " + String.join(", ", named)
                + ". Set model_info.base_model to the model they run, or input_cost_per_token and output_cost_per_token.");
    }

    /**
     * The deployments nothing prices: no token price of their own or the catalog's, and no price
     * per image, character, second or query. A wildcard deployment is priced per call by the
     * model it is asked for, and a moderation deployment's calls cost nothing (as OpenAI's do),
     * so neither is named.
     */
    private static List<Deployment> unpriced(List<Deployment> deployments, ModelCatalog catalog) {
        return deployments.stream()
                .filter(d -> catalog.prices(d).isEmpty() && !d.params().prices().unitPrices().any())
                .filter(d -> !WildcardPattern.isPattern(d.params().model()))
                .filter(d -> d.info().mode().filter(mode -> mode == ModelMode.MODERATION).isEmpty())
                .toList();
    }

    private static Map<List<String>, Double> perDeployment(List<Deployment> deployments) {
        Map<List<String>, Double> values = new LinkedHashMap<>();
        deployments.forEach(d -> values.put(List.of(d.modelName(), d.id()), 1.0));
        return values;
    }
}
