package dev.sluice.store;

import java.util.Map;

/**
 * A key's budgets and rate limits per model group, each keyed by the group (or the name the
 * caller asks for): {@code model_max_budget}, {@code model_rpm_limit}, {@code model_tpm_limit}.
 * A group without an entry is bounded only by the key's own budget and limits.
 *
 * @param modelMaxBudget per model group: a budget and its period
 * @param modelRpmLimit  per model group: requests per minute
 * @param modelTpmLimit  per model group: tokens per minute
 */
public record ModelLimits(
        Map<String, ModelBudget> modelMaxBudget, Map<String, Long> modelRpmLimit, Map<String, Long> modelTpmLimit) {

    /** No budget or limit for any group. */
    public static final ModelLimits NONE = new ModelLimits(Map.of(), Map.of(), Map.of());

    public ModelLimits {
        modelMaxBudget = Frozen.map("model_max_budget", modelMaxBudget);
        modelRpmLimit = Frozen.limits("model_rpm_limit", modelRpmLimit);
        modelTpmLimit = Frozen.limits("model_tpm_limit", modelTpmLimit);
    }
}
