package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.NODES;
import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalBoolean;
import static dev.sluice.model.WireFields.optionalCount;
import static dev.sluice.model.WireFields.optionalNumber;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;
import static dev.sluice.vendors.openai.responses.ResponsesFields.nonBlank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.Dialect;
import dev.sluice.model.ExtraFields;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.model.Sampling;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import dev.sluice.model.WireFields;
import dev.sluice.vendors.openai.wire.OpenAiToolFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Responses API request body ({@code POST /v1/responses}) into a {@link ResponsesRequest}.
 * What chat completions also has is carried as their extra fields, under their names there,
 * so {@code OpenAiChat.encodeRequest} writes a valid chat-completions body:
 * {@code text.format} as {@code response_format}, {@code text.verbosity} as {@code verbosity},
 * {@code reasoning.effort} as {@code reasoning_effort}, and {@code parallel_tool_calls} (when
 * there are tools), {@code metadata}, {@code user}, {@code service_tier},
 * {@code prompt_cache_key} and {@code safety_identifier} as they are.
 *
 * <p>Only function tools are served; a hosted tool (web search, file search, ...) is refused
 * by its type, as are a stored prompt, a conversation object and a background run, which
 * need state Sluice does not keep. {@link #IGNORED} lists the fields read and let go because
 * they do not change the answer.
 */
final class ResponsesRequestDecoder {
    /** Fields taken and let go: storage and output options with no bearing on the answer served. */
    static final Set<String> IGNORED = Set.of("store", "previous_response_id", "include", "truncation", "stream_options",
            "top_logprobs", "max_tool_calls", "background");
    static final Set<String> COPIED = Set.of("user", "service_tier", "prompt_cache_key", "safety_identifier");
    static final Set<String> READ = Set.of("model", "input", "instructions", "tools", "tool_choice", "max_output_tokens",
            "temperature", "top_p", "text", "reasoning", "parallel_tool_calls", "metadata", "stream");
    private static final List<String> ECHOED = List.of("tools", "tool_choice", "text", "reasoning", "temperature", "top_p",
            "max_output_tokens", "parallel_tool_calls", "user");
    private static final String CHOICES = "auto, none, required or {\"type\":\"function\",\"name\":...}";

    private ResponsesRequestDecoder() {}

    static ResponsesRequest decode(JsonNode node) {
        ObjectNode body = object(node, "$");
        body.properties().forEach(field -> {
            String name = field.getKey();
            if (!READ.contains(name) && !COPIED.contains(name) && !IGNORED.contains(name)) {
                throw refused(name, field.getValue(), "no such field; Sluice serves model, input, instructions, tools, "
                        + "tool_choice, text, reasoning and the sampling fields");
            }
        });
        if (Boolean.TRUE.equals(optionalBoolean(body, "background", ""))) {
            throw refused("background", body.get("background"), "false; a background response is not served");
        }
        String model = nonBlank(body, "model", "");
        String instructions = optionalText(body, "instructions", "");
        List<Message> messages = new ArrayList<>();
        if (instructions != null) {
            messages.add(Message.text(Role.SYSTEM, instructions));
        }
        messages.addAll(ResponsesInput.decode(body.get("input"), "input"));
        Sampling sampling = new Sampling(optionalCount(body, "max_output_tokens", ""), optionalNumber(body, "temperature", ""),
                optionalNumber(body, "top_p", ""), List.of());
        boolean stream = Boolean.TRUE.equals(optionalBoolean(body, "stream", ""));
        ChatRequest chat = new ChatRequest(model, messages, tools(body.get("tools")), toolChoice(body.get("tool_choice")), sampling,
                stream, new ExtraFields(Dialect.OPENAI, extra(body)));
        Boolean store = optionalBoolean(body, "store", "");
        JsonNode metadata = absent(body.get("metadata")) ? null : object(body.get("metadata"), "metadata").deepCopy();
        ObjectNode echoed = NODES.objectNode();
        for (String field : ECHOED) {
            if (body.has(field)) {
                echoed.set(field, body.get(field).deepCopy());
            }
        }
        return new ResponsesRequest(chat, model, instructions, optionalText(body, "previous_response_id", ""),
                !Boolean.FALSE.equals(store), metadata, echoed);
    }

    private static Map<String, JsonNode> extra(ObjectNode body) {
        Map<String, JsonNode> extra = new LinkedHashMap<>();
        JsonNode format = responseFormat(body.get("text"));
        if (format != null) {
            extra.put("response_format", format);
        }
        String verbosity = absent(body.get("text")) ? null : optionalText(body.get("text"), "verbosity", "text");
        if (verbosity != null) {
            extra.put("verbosity", NODES.textNode(verbosity));
        }
        JsonNode reasoning = body.get("reasoning");
        if (!absent(reasoning)) {
            String effort = optionalText(object(reasoning, "reasoning"), "effort", "reasoning");
            if (effort != null) {
                extra.put("reasoning_effort", NODES.textNode(effort));
            }
        }
        // Chat completions refuses parallel_tool_calls beside no tools; the Responses API lets it pass.
        Boolean parallel = optionalBoolean(body, "parallel_tool_calls", "");
        if (parallel != null && !absent(body.get("tools")) && !body.get("tools").isEmpty()) {
            extra.put("parallel_tool_calls", NODES.booleanNode(parallel));
        }
        if (!absent(body.get("metadata"))) {
            extra.put("metadata", object(body.get("metadata"), "metadata").deepCopy());
        }
        for (String field : COPIED) {
            if (!absent(body.get(field))) {
                extra.put(field, body.get(field).deepCopy());
            }
        }
        return extra;
    }

    /** {@code text.format} as chat completions' {@code response_format}; null when not given. */
    private static JsonNode responseFormat(JsonNode text) {
        if (absent(text)) {
            return null;
        }
        JsonNode formatNode = object(text, "text").get("format");
        if (absent(formatNode)) {
            return null;
        }
        ObjectNode format = object(formatNode, "text.format");
        String type = text(format, "type", "text.format");
        return switch (type) {
            case "text", "json_object" -> NODES.objectNode().put("type", type);
            case "json_schema" -> {
                ObjectNode schema = NODES.objectNode().put("name", nonBlank(format, "name", "text.format"));
                String description = optionalText(format, "description", "text.format");
                if (description != null) {
                    schema.put("description", description);
                }
                schema.set("schema", object(format.get("schema"), "text.format.schema").deepCopy());
                Boolean strict = optionalBoolean(format, "strict", "text.format");
                if (strict != null) {
                    schema.put("strict", strict);
                }
                ObjectNode responseFormat = NODES.objectNode().put("type", "json_schema");
                responseFormat.set("json_schema", schema);
                yield responseFormat;
            }
            default -> throw refused("text.format.type", format.get("type"), "text, json_object or json_schema");
        };
    }

    private static List<Tool> tools(JsonNode tools) {
        return OpenAiToolFields.functions(tools, "function; hosted tools are not served", ResponsesRequestDecoder::tool);
    }

    /** A function tool, its name, description and schema at its top. */
    private static Tool tool(ObjectNode tool, String path) {
        JsonNode parameters = tool.get("parameters");
        if (!absent(parameters)) {
            object(parameters, path(path, "parameters"));
        }
        return new Tool(nonBlank(tool, "name", path), optionalText(tool, "description", path),
                absent(parameters) ? null : parameters.deepCopy(), optionalBoolean(tool, "strict", path));
    }

    private static ToolChoice toolChoice(JsonNode choice) {
        return OpenAiToolFields.choice(choice, CHOICES, forced -> nonBlank(forced, "name", "tool_choice"));
    }
}
