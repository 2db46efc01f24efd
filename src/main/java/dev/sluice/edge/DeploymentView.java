package dev.sluice.edge;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.config.LitellmParams;
import dev.sluice.config.ModelInfo;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A deployment as {@code /model/info} shows it, in LiteLLM's shape: {@code model_name},
 * {@code litellm_params} and {@code model_info}. Its API key is never shown; that one is set
 * says {@code model_info.has_api_key}. Durations are in seconds, as the config file writes them.
 * {@code model_info} holds every field the config wrote, those Sluice does not act on
 * ({@code supports_vision}, {@code base_model}, custom fields) included; the catalog's facts
 * (context window, output limit, prices) fill only the fields the config left out, as
 * LiteLLM merges {@code get_model_info} under a deployment's own {@code model_info}.
 */
final class DeploymentView {
    private DeploymentView() {}

    static ObjectNode of(Deployment deployment, boolean added, ModelCatalog catalog) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode view = f.objectNode().put("model_name", deployment.modelName());
        LitellmParams p = deployment.params();
        ObjectNode params = view.putObject("litellm_params").put("model", p.model());
        p.endpoint().apiBase().ifPresent(base -> params.put("api_base", base));
        p.endpoint().apiVersion().ifPresent(version -> params.put("api_version", version));
        put(params, "rpm", p.capacity().rpm());
        put(params, "tpm", p.capacity().tpm());
        put(params, "weight", p.weight());
        put(params, "order", p.order());
        put(params, "timeout", p.attempts().timeout());
        put(params, "stream_timeout", p.attempts().streamTimeout());
        put(params, "max_retries", p.attempts().maxRetries());
        put(params, "cooldown_time", p.attempts().cooldownTime());
        put(params, "input_cost_per_token", p.prices().inputCostPerToken());
        put(params, "output_cost_per_token", p.prices().outputCostPerToken());
        if (!p.guardrails().isEmpty()) {
            p.guardrails().forEach(params.putArray("guardrails")::add);
        }
        if (!p.tags().isEmpty()) {
            p.tags().forEach(params.putArray("tags")::add);
        }
        ModelInfo i = deployment.info();
        ObjectNode info = view.putObject("model_info");
        i.written().forEach((field, value) -> info.set(field, value.deepCopy()));
        info.put("id", deployment.id())
                .put("db_model", added)
                .put("provider", p.provider())
                .put("has_api_key", p.endpoint().apiKey().isPresent());
        put(info, "max_input_tokens", i.maxInputTokens());
        put(info, "max_output_tokens", i.maxOutputTokens());
        put(info, "cooldown_time", i.cooldownTime());
        i.mode().ifPresent(mode -> info.put("mode", mode.configName()));
        i.baseModel().ifPresent(base -> info.put("base_model", base));
        put(info, "input_cost_per_token", i.inputCostPerToken());
        put(info, "output_cost_per_token", i.outputCostPerToken());
        if (!i.accessGroups().isEmpty()) {
            i.accessGroups().forEach(info.putArray("access_groups")::add);
        }
        if (!i.allowedFailsPolicy().isEmpty()) {
            ObjectNode policy = info.putObject("allowed_fails_policy");
            i.allowedFailsPolicy().forEach(policy::put);
        }
        fillFromCatalog(info, deployment, catalog);
        return view;
    }

    private static void fillFromCatalog(ObjectNode info, Deployment deployment, ModelCatalog catalog) {
        if (!info.has("max_input_tokens")) {
            put(info, "max_input_tokens", catalog.maxInputTokens(deployment));
        }
        if (!info.has("max_output_tokens")) {
            put(info, "max_output_tokens", catalog.maxOutputTokens(deployment));
        }
        catalog.prices(deployment).ifPresent(prices -> {
            if (!info.has("input_cost_per_token")) {
                info.put("input_cost_per_token", prices.inputPerToken());
            }
            if (!info.has("output_cost_per_token")) {
                info.put("output_cost_per_token", prices.outputPerToken());
            }
        });
        if (!info.has("litellm_provider")) {
            info.put("litellm_provider", deployment.params().provider());
        }
    }

    private static void put(ObjectNode node, String field, OptionalInt value) {
        value.ifPresent(v -> node.put(field, v));
    }

    private static void put(ObjectNode node, String field, OptionalDouble value) {
        value.ifPresent(v -> node.put(field, v));
    }

    private static void put(ObjectNode node, String field, Optional<Duration> value) {
        value.ifPresent(v -> node.put(field, v.toMillis() / 1000.0));
    }
}
