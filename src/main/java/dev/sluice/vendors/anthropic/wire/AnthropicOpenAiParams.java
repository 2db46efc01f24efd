package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenAI's request fields that the internal model has no term for, as Anthropic's Messages
 * API takes them, following LiteLLM's mapping:
 *
 * <ul>
 *   <li>{@code response_format} {@code json_schema} / {@code json_object}: a tool named
 *       {@value #JSON_TOOL} that the model is forced to call, whose input is the answer;
 *       {@code text} asks nothing.
 *   <li>{@code reasoning_effort} {@code low} / {@code medium} / {@code high}: extended
 *       thinking with a budget of 1024 / 2048 / 4096 tokens; {@code none} asks nothing.
 *   <li>{@code parallel_tool_calls: false}: {@code tool_choice.disable_parallel_tool_use}.
 *   <li>{@code user}: {@code metadata.user_id}.
 *   <li>{@code top_k} and {@code thinking}, which LiteLLM's callers may send in Anthropic's
 *       own form: passed on as they are.
 *   <li>What Anthropic has no place for ({@link #UNSUPPORTED}, {@code n} above 1,
 *       {@code logprobs: true}): refused, or left out and listed when drop_params allows.
 *   <li>Anything else ({@code stream_options}, which the adapter reads, LiteLLM's own
 *       {@code metadata}, fields no vendor knows): not sent, since Anthropic refuses fields it
 *       does not know.
 * </ul>
 */
final class AnthropicOpenAiParams {
    static final String JSON_TOOL = "json_tool_call";
    static final Map<String, Integer> THINKING_BUDGETS = Map.of("low", 1024, "medium", 2048, "high", 4096);
    static final Set<String> UNSUPPORTED = Set.of("logprobs", "top_logprobs", "n", "presence_penalty", "frequency_penalty",
            "seed", "logit_bias", "modalities", "audio", "prediction", "functions", "function_call", "web_search_options",
            "service_tier");

    private final Map<String, JsonNode> fields;

    AnthropicOpenAiParams(Map<String, JsonNode> fields) {
        this.fields = fields;
    }

    /** The fields Anthropic cannot take, in the caller's order. */
    List<String> unsupported() {
        List<String> names = new ArrayList<>();
        fields.forEach((name, value) -> {
            if (UNSUPPORTED.contains(name) && asks(name, value)) {
                names.add(name);
            }
        });
        return names;
    }

    /** Whether the field asks for something: {@code n: 1} and {@code logprobs: false} ask nothing Anthropic lacks. */
    private static boolean asks(String name, JsonNode value) {
        if (value.isNull()) {
            return false;
        }
        return switch (name) {
            case "n" -> !(value.canConvertToInt() && value.intValue() == 1);
            case "logprobs" -> !value.isBoolean() || value.booleanValue();
            default -> true;
        };
    }

    /** The JSON schema the forced tool takes as its input, or null when no structured output was asked. */
    ObjectNode jsonToolSchema() {
        JsonNode format = fields.get("response_format");
        if (format == null || format.isNull()) {
            return null;
        }
        String type = format.path("type").asText("");
        return switch (type) {
            case "text" -> null;
            case "json_object" -> JsonNodeFactory.instance.objectNode().put("type", "object").put("additionalProperties", true)
                    .set("properties", JsonNodeFactory.instance.objectNode());
            case "json_schema" -> {
                JsonNode schema = format.path("json_schema").path("schema");
                if (!schema.isObject()) {
                    throw new IllegalArgumentException("response_format.json_schema.schema: "
                            + (schema.isMissingNode() ? "missing" : schema) + " (expected: a JSON schema object)");
                }
                ObjectNode input = JsonNodeFactory.instance.objectNode().put("type", "object");
                input.setAll(((ObjectNode) schema).deepCopy());
                yield input;
            }
            default -> throw new IllegalArgumentException("response_format.type: " + format.path("type")
                    + " (expected: text, json_object or json_schema)");
        };
    }

    /** Anthropic's {@code thinking} for {@code reasoning_effort}, or the caller's own {@code thinking}; null for neither. */
    ObjectNode thinking() {
        JsonNode own = fields.get("thinking");
        if (own != null && own.isObject()) {
            return ((ObjectNode) own).deepCopy();
        }
        JsonNode effort = fields.get("reasoning_effort");
        if (effort == null || effort.isNull() || "none".equals(effort.asText())) {
            return null;
        }
        Integer budget = effort.isTextual() ? THINKING_BUDGETS.get(effort.textValue()) : null;
        if (budget == null) {
            throw new IllegalArgumentException("reasoning_effort: " + effort + " (expected: none, low, medium or high)");
        }
        return JsonNodeFactory.instance.objectNode().put("type", "enabled").put("budget_tokens", budget);
    }

    /** Whether the caller asked that the model call at most one tool per turn. */
    boolean oneToolAtATime() {
        JsonNode parallel = fields.get("parallel_tool_calls");
        return parallel != null && parallel.isBoolean() && !parallel.booleanValue();
    }

    /** {@code metadata} for the caller's {@code user}, or null when none was given. */
    ObjectNode metadata() {
        JsonNode user = fields.get("user");
        return user != null && user.isTextual() ? JsonNodeFactory.instance.objectNode().put("user_id", user.textValue()) : null;
    }

    /** Anthropic's {@code top_k}, which LiteLLM's callers may send as it is: passed on unchanged unless already written. */
    void passOn(ObjectNode body) {
        JsonNode topK = fields.get("top_k");
        if (topK != null && !topK.isNull() && !body.has("top_k")) {
            body.set("top_k", topK.deepCopy());
        }
    }
}
