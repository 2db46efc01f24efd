package dev.sluice.vendors.gemini.wire;

import static dev.sluice.vendors.gemini.wire.GeminiRequests.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.Dialect;
import dev.sluice.model.ExtraFields;
import dev.sluice.model.Sampling;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gemini's {@code generationConfig}: the shared sampling settings, and the OpenAI parameters
 * Gemini has a place for, mapped as LiteLLM maps them. {@code stop} is {@code stopSequences},
 * {@code top_p} {@code topP}, the token limit {@code maxOutputTokens}; {@code seed},
 * {@code presence_penalty} and {@code frequency_penalty} keep their meaning; a JSON
 * {@code response_format} is {@code responseMimeType: application/json} with its schema as
 * {@code responseSchema}; {@code reasoning_effort} (and Anthropic's {@code thinking}) is a
 * {@code thinkingConfig}. A parameter with no place is named in {@code unsupported}.
 */
final class GeminiGenerationConfig {
    /**
     * Parameters read elsewhere or that only steer the gateway, and {@code user}, which LiteLLM
     * leaves out of its unsupported-parameter check for every vendor (clients send it on every
     * call): never sent and never refused.
     */
    private static final Set<String> HANDLED = Set.of("max_tokens", "stream_options", "parallel_tool_calls", "metadata", "user");

    /** LiteLLM's thinking budgets for {@code reasoning_effort}. */
    static final Map<String, Integer> THINKING_BUDGETS = Map.of(
            "none", 0, "disable", 0, "minimal", 128, "low", 1024, "medium", 2048, "high", 4096);

    private GeminiGenerationConfig() {}

    static ObjectNode encode(Sampling sampling, ExtraFields extra, List<String> unsupported) {
        ObjectNode config = NODES.objectNode();
        if (sampling.temperature() != null) {
            config.put("temperature", sampling.temperature());
        }
        if (sampling.topP() != null) {
            config.put("topP", sampling.topP());
        }
        if (sampling.maxTokens() != null) {
            config.put("maxOutputTokens", sampling.maxTokens());
        }
        if (!sampling.stopSequences().isEmpty()) {
            sampling.stopSequences().forEach(config.putArray("stopSequences")::add);
        }
        for (Map.Entry<String, JsonNode> field : extra.in(Dialect.OPENAI).entrySet()) {
            JsonNode value = field.getValue();
            if (value.isNull()) {
                continue; // an explicit null asks for the default, which leaving it out gives
            }
            switch (field.getKey()) {
                case "seed" -> config.set("seed", value);
                case "presence_penalty" -> config.set("presencePenalty", value);
                case "frequency_penalty" -> config.set("frequencyPenalty", value);
                case "n" -> {
                    if (value.asInt(1) != 1) {
                        unsupported.add("n"); // one candidate is read back; more would be lost
                    }
                }
                case "response_format" -> responseFormat(value, config);
                case "reasoning_effort" -> thinking(budgetOf(value), config);
                case "thinking" -> thinking(anthropicBudget(value), config);
                default -> {
                    if (!HANDLED.contains(field.getKey())) {
                        unsupported.add(field.getKey());
                    }
                }
            }
        }
        return config;
    }

    private static void responseFormat(JsonNode format, ObjectNode config) {
        String type = format.path("type").asText("");
        switch (type) {
            case "text" -> { }
            case "json_object" -> config.put("responseMimeType", "application/json");
            case "json_schema" -> {
                config.put("responseMimeType", "application/json");
                JsonNode schema = format.path("json_schema").path("schema");
                if (schema.isObject()) {
                    config.set("responseSchema", GeminiSchema.clean(schema));
                }
            }
            default -> throw new IllegalArgumentException("response_format.type: " + format.path("type")
                    + " (expected: text, json_object or json_schema)");
        }
    }

    private static int budgetOf(JsonNode effort) {
        Integer budget = THINKING_BUDGETS.get(effort.asText(""));
        if (budget == null) {
            throw new IllegalArgumentException("reasoning_effort: " + effort
                    + " (expected: none, minimal, low, medium or high)");
        }
        return budget;
    }

    /** Anthropic's {@code thinking: {type: enabled, budget_tokens: N}}, which LiteLLM also reads for Gemini. */
    private static int anthropicBudget(JsonNode thinking) {
        if ("disabled".equals(thinking.path("type").asText())) {
            return 0;
        }
        JsonNode budget = thinking.path("budget_tokens");
        if (!budget.canConvertToInt() || budget.asInt() < 0) {
            throw new IllegalArgumentException("thinking.budget_tokens: " + budget + " (expected: a whole number >= 0)");
        }
        return budget.asInt();
    }

    /** A budget of 0 turns thinking off; any other asks for the thoughts to be returned too. */
    private static void thinking(int budget, ObjectNode config) {
        ObjectNode thinking = config.putObject("thinkingConfig").put("thinkingBudget", budget);
        if (budget > 0) {
            thinking.put("includeThoughts", true);
        }
    }
}
