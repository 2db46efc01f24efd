package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.Dialect;
import dev.sluice.model.Sampling;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ChatRequest} as a Messages API request body. {@code max_tokens}, which Anthropic
 * requires, is the caller's {@code max_tokens} / {@code max_completion_tokens}, else the
 * default the caller of this class gives; when extended thinking is asked and that default
 * would leave no room beyond the thinking budget, the budget is added to it.
 */
final class AnthropicRequests {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AnthropicRequests() {}

    static AnthropicMessages.Encoded encode(ChatRequest request, AnthropicMessages.Options options) {
        AnthropicOpenAiParams params = new AnthropicOpenAiParams(request.extra().in(Dialect.OPENAI));
        List<String> unsupported = params.unsupported();
        ObjectNode body = NODES.objectNode().put("model", options.model());
        ArrayNode system = AnthropicTurns.system(request.messages());
        if (!system.isEmpty()) {
            body.set("system", system);
        }
        body.set("messages", AnthropicTurns.messages(request.messages()));
        ObjectNode thinking = params.thinking();
        body.put("max_tokens", maxTokens(request.sampling(), thinking, options.defaultMaxTokens()));
        sampling(request.sampling(), body);
        ObjectNode jsonSchema = params.jsonToolSchema();
        tools(request, jsonSchema, params.oneToolAtATime(), thinks(thinking), body);
        if (thinking != null) {
            body.set("thinking", thinking);
        }
        ObjectNode metadata = params.metadata();
        if (metadata != null) {
            body.set("metadata", metadata);
        }
        params.passOn(body);
        // A request decoded from Anthropic's own form gets back the fields the model has no term for.
        request.extra().in(Dialect.ANTHROPIC).forEach((name, value) -> {
            if (!body.has(name)) {
                body.set(name, value.deepCopy());
            }
        });
        if (request.stream()) {
            body.put("stream", true);
        }
        return new AnthropicMessages.Encoded(body, unsupported, jsonSchema != null);
    }

    private static int maxTokens(Sampling sampling, ObjectNode thinking, int defaultMaxTokens) {
        if (sampling.maxTokens() != null) {
            return sampling.maxTokens();
        }
        int budget = thinking == null ? 0 : thinking.path("budget_tokens").asInt(0);
        return budget >= defaultMaxTokens ? budget + defaultMaxTokens : defaultMaxTokens;
    }

    private static void sampling(Sampling sampling, ObjectNode body) {
        if (sampling.temperature() != null) {
            body.put("temperature", sampling.temperature());
        }
        if (sampling.topP() != null) {
            body.put("top_p", sampling.topP());
        }
        if (!sampling.stopSequences().isEmpty()) {
            sampling.stopSequences().forEach(body.putArray("stop_sequences")::add);
        }
    }

    /** Whether the thinking asked is on: Anthropic takes {@code {"type": "disabled"}} too. */
    private static boolean thinks(ObjectNode thinking) {
        return thinking != null && !"disabled".equals(thinking.path("type").asText());
    }

    private static void tools(ChatRequest request, ObjectNode jsonSchema, boolean oneAtATime, boolean thinks, ObjectNode body) {
        List<ObjectNode> tools = new ArrayList<>();
        request.tools().forEach(tool -> tools.add(tool(tool)));
        ObjectNode choice = request.toolChoice() == null ? null : choice(request.toolChoice());
        if (jsonSchema != null) {
            tools.add(NODES.objectNode().put("name", AnthropicOpenAiParams.JSON_TOOL)
                    .put("description", "Answer in the JSON the input schema describes.").set("input_schema", jsonSchema));
            // Anthropic refuses a forced tool while thinking (400), so the json tool is then only offered.
            choice = thinks ? NODES.objectNode().put("type", "auto")
                    : NODES.objectNode().put("type", "tool").put("name", AnthropicOpenAiParams.JSON_TOOL);
        }
        if (!tools.isEmpty()) {
            body.putArray("tools").addAll(tools);
        }
        if (oneAtATime && !tools.isEmpty()) {
            choice = choice == null ? NODES.objectNode().put("type", "auto") : choice;
            choice.put("disable_parallel_tool_use", true);
        }
        if (choice != null) {
            body.set("tool_choice", choice);
        }
    }

    private static ObjectNode tool(Tool tool) {
        ObjectNode node = NODES.objectNode().put("name", tool.name());
        if (tool.description() != null) {
            node.put("description", tool.description());
        }
        // Anthropic requires a schema; a function that takes nothing has an empty object's.
        node.set("input_schema", tool.parameters() != null ? tool.parameters().deepCopy()
                : NODES.objectNode().put("type", "object").set("properties", NODES.objectNode()));
        return AnthropicCacheControl.write(tool.cache(), node);
    }

    private static ObjectNode choice(ToolChoice choice) {
        return switch (choice.mode()) {
            case AUTO -> NODES.objectNode().put("type", "auto");
            case NONE -> NODES.objectNode().put("type", "none");
            case REQUIRED -> NODES.objectNode().put("type", "any");
            case TOOL -> NODES.objectNode().put("type", "tool").put("name", choice.toolName());
        };
    }
}
