package dev.sluice.vendors.bedrock.wire;

import static dev.sluice.vendors.bedrock.wire.ConverseJson.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the caller's OpenAI fields without an internal term mean for Converse, following
 * LiteLLM's Bedrock mapping: {@code response_format} becomes a tool the model is made to call
 * (its input is the structured answer), {@code reasoning_effort} and {@code thinking} become
 * Anthropic's {@code thinking} for an Anthropic model, a few fields that change nothing are
 * ignored, and every other field is unsupported.
 *
 * @param responseTool the tool carrying {@code response_format}'s answer, or null
 * @param thinking     Anthropic's {@code thinking} object for {@code additionalModelRequestFields}, or null
 * @param unsupported  the fields Converse has no place for, in the caller's order
 */
record ConverseExtras(Tool responseTool, ObjectNode thinking, List<String> unsupported) {
    /** LiteLLM's name for the tool that carries a {@code json_object} answer. */
    static final String JSON_TOOL = "json_tool_call";
    /** The tool a conversation holding tool calls gets when the caller's tools are left out. */
    static final String PLACEHOLDER_TOOL = "dummy_tool";
    /** Tokens left for the answer beside a thinking budget when the caller set no limit. */
    static final int ANSWER_TOKENS_BESIDE_THINKING = 4096;

    /** LiteLLM's thinking budgets for each {@code reasoning_effort}. */
    private static final Map<String, Integer> BUDGETS = Map.of("minimal", 128, "low", 1024, "medium", 2048, "high", 4096);

    static ConverseExtras read(Map<String, JsonNode> extra, String modelId) {
        Tool responseTool = null;
        ObjectNode thinking = null;
        List<String> unsupported = new ArrayList<>();
        boolean anthropic = modelId.toLowerCase(Locale.ROOT).contains("anthropic");
        for (Map.Entry<String, JsonNode> field : extra.entrySet()) {
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "response_format" -> responseTool = responseTool(value);
                case "reasoning_effort" -> {
                    if (!anthropic) {
                        unsupported.add("reasoning_effort");
                    } else if (thinking == null) {
                        thinking = thinking(value);
                    }
                }
                case "thinking" -> {
                    if (!anthropic) {
                        unsupported.add("thinking");
                    } else if (!value.isObject()) {
                        throw new IllegalArgumentException("thinking: " + value + " (expected: an object such as"
                                + " {\"type\":\"enabled\",\"budget_tokens\":1024})");
                    } else if (!"disabled".equals(value.path("type").asText())) {
                        thinking = (ObjectNode) value;
                    }
                }
                // Handled by the gateway, the same as Converse's own behaviour, (metadata) LiteLLM's own
                // field for logging, which it never sends to a vendor, or (user) a field LiteLLM leaves out
                // of its unsupported-parameter check for every vendor, as clients send it on every call.
                case "stream_options", "max_tokens", "metadata", "user" -> { }
                case "n" -> {
                    if (value.asInt(1) != 1 || !value.isNumber()) {
                        unsupported.add("n");
                    }
                }
                case "parallel_tool_calls" -> {
                    if (!value.asBoolean(true)) {
                        unsupported.add("parallel_tool_calls");
                    }
                }
                default -> {
                    if (!value.isNull()) {
                        unsupported.add(field.getKey());
                    }
                }
            }
        }
        return new ConverseExtras(responseTool, thinking, unsupported);
    }

    private static Tool responseTool(JsonNode format) {
        String type = format.path("type").asText("");
        return switch (type) {
            case "text" -> null;
            case "json_object" -> new Tool(JSON_TOOL, null, openSchema(), null);
            case "json_schema" -> {
                JsonNode schema = format.path("json_schema");
                String name = schema.path("name").asText("");
                if (!schema.path("schema").isObject()) {
                    throw new IllegalArgumentException("response_format.json_schema.schema: " + schema.path("schema")
                            + " (expected: a JSON schema object)");
                }
                yield new Tool(name.isBlank() ? JSON_TOOL : name, schema.path("description").asText(null),
                        schema.get("schema"), null);
            }
            default -> throw new IllegalArgumentException("response_format.type: " + format.path("type")
                    + " (expected: text, json_object or json_schema)");
        };
    }

    private static ObjectNode openSchema() {
        ObjectNode schema = NODES.objectNode().put("type", "object").put("additionalProperties", true);
        schema.putObject("properties");
        return schema;
    }

    private static ObjectNode thinking(JsonNode effort) {
        String level = effort.asText("");
        if (level.equals("none")) {
            return null;
        }
        Integer budget = BUDGETS.get(level);
        if (budget == null || !effort.isTextual()) {
            throw new IllegalArgumentException("reasoning_effort: " + effort + " (expected: none, minimal, low, medium or high)");
        }
        return NODES.objectNode().put("type", "enabled").put("budget_tokens", budget);
    }
}
