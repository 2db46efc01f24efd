package dev.sluice.vendors.bedrock.wire;

import static dev.sluice.vendors.bedrock.wire.ConverseJson.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.Dialect;
import dev.sluice.model.Sampling;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link ChatRequest} as a Converse body. The shared settings map one to one
 * ({@code inferenceConfig}); OpenAI's extra fields are mapped where Converse has a place for them
 * ({@code response_format} as a forced tool, {@code reasoning_effort} as Anthropic's
 * {@code thinking}), ignored where they change nothing, and listed as unsupported otherwise.
 */
final class ConverseRequests {
    private ConverseRequests() {}

    static ConverseCall encode(ChatRequest request, String modelId) {
        ObjectNode body = NODES.objectNode();
        ConverseCachePoints cachePoints = ConverseCachePoints.forModel(modelId);
        body.set("messages", ConverseMessages.turns(request.messages(), cachePoints));
        ArrayNode system = ConverseMessages.system(request.messages(), cachePoints);
        if (!system.isEmpty()) {
            body.set("system", system);
        }
        Map<String, JsonNode> extra = request.extra().in(Dialect.OPENAI);
        ConverseExtras extras = ConverseExtras.read(extra, modelId);
        Integer maxTokens = request.sampling().maxTokens();
        if (extras.thinking() != null && maxTokens == null) {
            // Anthropic wants room for the answer beyond the thinking budget, and Converse has no default for it.
            maxTokens = extras.thinking().path("budget_tokens").asInt() + ConverseExtras.ANSWER_TOKENS_BESIDE_THINKING;
        }
        ObjectNode inference = inferenceConfig(request.sampling(), maxTokens);
        if (!inference.isEmpty()) {
            body.set("inferenceConfig", inference);
        }
        ObjectNode toolConfig = toolConfig(request, extras, cachePoints);
        if (toolConfig != null) {
            body.set("toolConfig", toolConfig);
        }
        if (extras.thinking() != null) {
            body.putObject("additionalModelRequestFields").set("thinking", extras.thinking());
        }
        return new ConverseCall(body, extras.unsupported(), extras.responseTool() == null ? null : extras.responseTool().name());
    }

    private static ObjectNode inferenceConfig(Sampling sampling, Integer maxTokens) {
        ObjectNode inference = NODES.objectNode();
        if (maxTokens != null) {
            inference.put("maxTokens", maxTokens);
        }
        if (sampling.temperature() != null) {
            inference.put("temperature", sampling.temperature());
        }
        if (sampling.topP() != null) {
            inference.put("topP", sampling.topP());
        }
        List<String> stops = sampling.stopSequences().stream().filter(s -> !s.isEmpty()).toList();
        if (!stops.isEmpty()) {
            ArrayNode sequences = inference.putArray("stopSequences");
            stops.forEach(sequences::add);
        }
        return inference;
    }

    /**
     * The tools and the choice among them. {@code tool_choice: none} leaves the tools out, as
     * LiteLLM does, since Converse has no word for it; a conversation that already holds tool
     * calls still needs a {@code toolConfig}, so it then gets one tool that nothing asks for.
     */
    private static ObjectNode toolConfig(ChatRequest request, ConverseExtras extras, ConverseCachePoints cachePoints) {
        boolean none = request.toolChoice() != null && request.toolChoice().mode() == ToolChoice.Mode.NONE;
        List<Tool> tools = new ArrayList<>(none ? List.of() : request.tools());
        ObjectNode choice = none ? null : toolChoice(request.toolChoice());
        if (extras.responseTool() != null) {
            tools.add(extras.responseTool());
            if (extras.thinking() == null) {
                // Anthropic refuses a forced tool while thinking; the tool is then only offered.
                choice = NODES.objectNode();
                choice.putObject("tool").put("name", extras.responseTool().name());
            }
        }
        if (tools.isEmpty() && ConverseMessages.usesTools(request.messages())) {
            tools.add(new Tool(ConverseExtras.PLACEHOLDER_TOOL, "Not to be called; present because the conversation holds"
                    + " tool calls.", null, null));
        }
        if (tools.isEmpty()) {
            return null;
        }
        ObjectNode config = NODES.objectNode();
        ArrayNode specs = config.putArray("tools");
        for (Tool tool : tools) {
            ObjectNode spec = specs.addObject().putObject("toolSpec").put("name", tool.name());
            if (tool.description() != null) {
                spec.put("description", tool.description());
            }
            JsonNode schema = tool.parameters() != null ? tool.parameters()
                    : NODES.objectNode().put("type", "object").set("properties", NODES.objectNode());
            spec.putObject("inputSchema").set("json", schema);
            ObjectNode cachePoint = cachePoints.after(tool.cache());
            if (cachePoint != null) {
                specs.add(cachePoint);
            }
        }
        if (choice != null) {
            config.set("toolChoice", choice);
        }
        return config;
    }

    private static ObjectNode toolChoice(ToolChoice choice) {
        if (choice == null) {
            return null;
        }
        ObjectNode node = NODES.objectNode();
        switch (choice.mode()) {
            case AUTO -> node.putObject("auto");
            case REQUIRED -> node.putObject("any");
            case TOOL -> node.putObject("tool").put("name", choice.toolName());
            case NONE -> {
                return null;
            }
        }
        return node;
    }
}
