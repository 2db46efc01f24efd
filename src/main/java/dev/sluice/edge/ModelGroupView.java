package dev.sluice.edge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.router.ModelGroup;
import java.util.LinkedHashSet;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A model group as {@code /model_group/info} shows it, in LiteLLM's {@code ModelGroupInfo}
 * shape, summed over its deployments as LiteLLM sums them: the providers they use; the
 * largest context window, output limit and per-token prices any of them has (config first,
 * then the catalog); their {@code tpm} and {@code rpm} added up (absent when none sets one);
 * a {@code supports_*} flag true when any deployment's {@code model_info} sets it; the
 * {@code mode} of the first deployment that names one, else {@code chat}.
 */
final class ModelGroupView {
    /** The capability flags LiteLLM always answers, false unless a deployment's model_info says true. */
    static final Set<String> FLAGS = Set.of("supports_parallel_function_calling", "supports_vision", "supports_function_calling",
            "supports_web_search", "supports_reasoning");

    private ModelGroupView() {}

    static ObjectNode of(ModelGroup group, ModelCatalog catalog) {
        Set<String> providers = new LinkedHashSet<>();
        Most maxInput = new Most();
        Most maxOutput = new Most();
        Most inputCost = new Most();
        Most outputCost = new Most();
        Sum tpm = new Sum();
        Sum rpm = new Sum();
        String mode = null;
        ObjectNode flags = JsonNodeFactory.instance.objectNode();
        FLAGS.stream().sorted().forEach(flag -> flags.put(flag, false));
        for (Deployment deployment : group.deployments()) {
            providers.add(deployment.params().provider());
            maxInput.see(catalog.maxInputTokens(deployment));
            maxOutput.see(catalog.maxOutputTokens(deployment));
            catalog.prices(deployment).ifPresent(prices -> {
                inputCost.see(OptionalDouble.of(prices.inputPerToken()));
                outputCost.see(OptionalDouble.of(prices.outputPerToken()));
            });
            tpm.add(deployment.params().capacity().tpm());
            rpm.add(deployment.params().capacity().rpm());
            for (var field : deployment.info().written().entrySet()) {
                JsonNode value = field.getValue();
                if (field.getKey().startsWith("supports_") && value.isBoolean() && value.asBoolean()) {
                    flags.put(field.getKey(), true);
                }
                if (mode == null && field.getKey().equals("mode") && value.isTextual()) {
                    mode = value.asText();
                }
            }
        }
        ObjectNode view = JsonNodeFactory.instance.objectNode().put("model_group", group.name());
        providers.forEach(view.putArray("providers")::add);
        maxInput.put(view, "max_input_tokens");
        maxOutput.put(view, "max_output_tokens");
        inputCost.put(view, "input_cost_per_token");
        outputCost.put(view, "output_cost_per_token");
        view.put("mode", mode == null ? "chat" : mode);
        tpm.put(view, "tpm");
        rpm.put(view, "rpm");
        view.setAll(flags);
        view.putArray("supported_openai_params");
        return view;
    }

    /** The largest of the values seen; null in the view when none was. */
    private static final class Most {
        private Double most;

        void see(OptionalInt value) {
            value.ifPresent(v -> see(OptionalDouble.of(v)));
        }

        void see(OptionalDouble value) {
            if (value.isPresent() && (most == null || value.getAsDouble() > most)) {
                most = value.getAsDouble();
            }
        }

        void put(ObjectNode view, String field) {
            if (most == null) {
                view.putNull(field);
            } else if (most == Math.rint(most) && !field.contains("cost")) {
                view.put(field, most.longValue());
            } else {
                view.put(field, most);
            }
        }
    }

    /** The sum of the values set; null in the view when none was. */
    private static final class Sum {
        private Long sum;

        void add(OptionalInt value) {
            value.ifPresent(v -> sum = (sum == null ? 0 : sum) + v);
        }

        void put(ObjectNode view, String field) {
            if (sum == null) {
                view.putNull(field);
            } else {
                view.put(field, sum);
            }
        }
    }
}
