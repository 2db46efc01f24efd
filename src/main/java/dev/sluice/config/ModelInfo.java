package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A deployment's {@code model_info}.
 *
 * @param id                 as written; {@link Deployment#id()} carries the effective id
 * @param allowedFailsPolicy per-deployment override of {@code allowed_fails_policy}, e.g.
 *                           {@code InternalServerErrorAllowedFails: 1}
 * @param mode               {@code mode}, when it names one Sluice acts on; how the deployment's health is probed
 * @param baseModel          {@code base_model}: the model the deployment runs when its own name says nothing
 *                           (an Azure deployment named {@code my-gpt4o} running {@code azure/gpt-4o}); the
 *                           model catalog prices it and knows its window by this name
 * @param inputCostPerToken  {@code input_cost_per_token}, LiteLLM's other place for a deployment's price;
 *                           {@code litellm_params}' wins when both are written
 * @param outputCostPerToken {@code output_cost_per_token}, as {@code inputCostPerToken}
 * @param written            every field as the config wrote it, in its order, those Sluice does not act on
 *                           ({@code supports_vision}, {@code base_model}, a team's own fields) included:
 *                           {@code /model/info} shows them as LiteLLM does
 * @param accessGroups       {@code access_groups}: names a key or team lists in {@code models} to
 *                           be granted this deployment's group, in the order written, each once
 */
public record ModelInfo(
        Optional<String> id,
        OptionalInt maxInputTokens,
        OptionalInt maxOutputTokens,
        Map<String, Integer> allowedFailsPolicy,
        Optional<Duration> cooldownTime,
        Optional<ModelMode> mode,
        Optional<String> baseModel,
        OptionalDouble inputCostPerToken,
        OptionalDouble outputCostPerToken,
        List<String> accessGroups,
        Map<String, JsonNode> written) {

    public static final ModelInfo EMPTY = new ModelInfo(Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), Map.of(),
            Optional.empty(), Optional.empty(), Optional.empty(), OptionalDouble.empty(), OptionalDouble.empty(), List.of(), Map.of());

    public ModelInfo {
        accessGroups = List.copyOf(accessGroups);
        // The nodes are copied out of the config's tree once, where they are read
        // (ModelInfoParser); a copy made from another ModelInfo shares them.
        written = Collections.unmodifiableMap(new LinkedHashMap<>(written));
    }

    /** The same model info with {@code model} as its {@code base_model}. */
    public ModelInfo withBaseModel(String model) {
        return new ModelInfo(id, maxInputTokens, maxOutputTokens, allowedFailsPolicy, cooldownTime, mode, Optional.of(model),
                inputCostPerToken, outputCostPerToken, accessGroups, written);
    }
}
