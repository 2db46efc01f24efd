package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.NODES;
import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalBoolean;
import static dev.sluice.model.WireFields.optionalCount;
import static dev.sluice.model.WireFields.optionalNumber;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.CacheControl;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.Dialect;
import dev.sluice.model.ExtraFields;
import dev.sluice.model.Sampling;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenAI's chat-completions request body to and from {@link ChatRequest}. Fields the model
 * has no term for are kept as {@link ExtraFields} of {@link Dialect#OPENAI}. OpenAI's two
 * names for the token limit both read as {@link Sampling#maxTokens()}; it is written as
 * {@code max_completion_tokens}, the name OpenAI's reference keeps (a {@code max_tokens}
 * sent beside it stays an extra field).
 */
final class OpenAiChatRequests {
    private static final Set<String> COVERED = Set.of("model", "messages", "tools", "tool_choice", "max_completion_tokens",
            "temperature", "top_p", "stop", "stream");
    private static final String CHOICES = "auto, none, required or {\"type\":\"function\",\"function\":{\"name\":...}}";

    private OpenAiChatRequests() {}

    static ChatRequest decode(JsonNode node) {
        ObjectNode body = object(node, "$");
        String model = text(body, "model", "");
        Boolean stream = optionalBoolean(body, "stream", "");
        Map<String, JsonNode> extra = new LinkedHashMap<>();
        body.properties().forEach(field -> {
            if (!COVERED.contains(field.getKey())) {
                extra.put(field.getKey(), field.getValue().deepCopy());
            }
        });
        Sampling sampling = sampling(body);
        if (absent(body.get("max_completion_tokens"))) {
            extra.remove("max_tokens");
        }
        return new ChatRequest(model, OpenAiChatMessages.decode(body.get("messages"), "messages"), tools(body.get("tools")),
                toolChoice(body.get("tool_choice")), sampling, Boolean.TRUE.equals(stream), new ExtraFields(Dialect.OPENAI, extra));
    }

    private static Sampling sampling(ObjectNode body) {
        Integer maxTokens = optionalCount(body, "max_completion_tokens", "");
        if (maxTokens == null) {
            maxTokens = optionalCount(body, "max_tokens", "");
        }
        return new Sampling(maxTokens, optionalNumber(body, "temperature", ""), optionalNumber(body, "top_p", ""), stop(body.get("stop")));
    }

    private static List<String> stop(JsonNode stop) {
        if (absent(stop)) {
            return List.of();
        }
        if (stop.isTextual()) {
            return List.of(stop.textValue());
        }
        ArrayNode array = array(stop, "stop");
        List<String> sequences = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            if (!array.get(i).isTextual()) {
                throw refused(path("stop", i), array.get(i), "a string");
            }
            sequences.add(array.get(i).textValue());
        }
        return sequences;
    }

    private static List<Tool> tools(JsonNode tools) {
        return OpenAiToolFields.functions(tools, "function", OpenAiChatRequests::tool);
    }

    /** A function tool, its name, description and schema under {@code function}. */
    private static Tool tool(ObjectNode tool, String path) {
        String functionPath = path(path, "function");
        ObjectNode function = object(tool.get("function"), functionPath);
        String name = text(function, "name", functionPath);
        if (name.isBlank()) {
            throw refused(path(functionPath, "name"), function.get("name"), "a non-blank string");
        }
        JsonNode parameters = function.get("parameters");
        if (!absent(parameters)) {
            object(parameters, path(functionPath, "parameters"));
        }
        // LiteLLM reads the breakpoint on the tool, else inside its function.
        CacheControl cache = OpenAiCacheControl.read(tool, path);
        if (cache == null) {
            cache = OpenAiCacheControl.read(function, functionPath);
        }
        return new Tool(name, optionalText(function, "description", functionPath),
                absent(parameters) ? null : parameters.deepCopy(), optionalBoolean(function, "strict", functionPath), cache);
    }

    private static ToolChoice toolChoice(JsonNode choice) {
        return OpenAiToolFields.choice(choice, CHOICES, OpenAiChatRequests::forcedTool);
    }

    /** The name in a forced choice's {@code function}, which must not be blank. */
    private static String forcedTool(JsonNode choice) {
        String name = text(object(choice.get("function"), "tool_choice.function"), "name", "tool_choice.function");
        if (name.isBlank()) {
            throw refused("tool_choice.function.name", choice.get("function").get("name"), "a non-blank string");
        }
        return name;
    }

    static ObjectNode encode(ChatRequest request) {
        ObjectNode body = NODES.objectNode().put("model", request.model());
        body.set("messages", OpenAiChatMessages.encode(request.messages()));
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            request.tools().forEach(tool -> tools.add(encode(tool)));
        }
        if (request.toolChoice() != null) {
            body.set("tool_choice", encode(request.toolChoice()));
        }
        Sampling sampling = request.sampling();
        if (sampling.maxTokens() != null) {
            body.put("max_completion_tokens", sampling.maxTokens());
        }
        if (sampling.temperature() != null) {
            body.put("temperature", sampling.temperature());
        }
        if (sampling.topP() != null) {
            body.put("top_p", sampling.topP());
        }
        if (!sampling.stopSequences().isEmpty()) {
            sampling.stopSequences().forEach(body.putArray("stop")::add);
        }
        if (request.stream()) {
            body.put("stream", true);
        }
        request.extra().in(Dialect.OPENAI).forEach((name, value) -> {
            if (body.has(name)) {
                throw new IllegalArgumentException("extra." + name + ": " + value + " (expected: no extra field the model carries)");
            }
            body.set(name, value.deepCopy());
        });
        return body;
    }

    private static ObjectNode encode(Tool tool) {
        ObjectNode node = NODES.objectNode().put("type", "function");
        ObjectNode function = node.putObject("function").put("name", tool.name());
        if (tool.description() != null) {
            function.put("description", tool.description());
        }
        if (tool.parameters() != null) {
            function.set("parameters", tool.parameters().deepCopy());
        }
        if (tool.strict() != null) {
            function.put("strict", tool.strict());
        }
        OpenAiCacheControl.write(tool.cache(), node);
        return node;
    }

    private static JsonNode encode(ToolChoice choice) {
        return switch (choice.mode()) {
            case AUTO -> NODES.textNode("auto");
            case NONE -> NODES.textNode("none");
            case REQUIRED -> NODES.textNode("required");
            case TOOL -> {
                ObjectNode node = NODES.objectNode().put("type", "function");
                node.putObject("function").put("name", choice.toolName());
                yield node;
            }
        };
    }
}
