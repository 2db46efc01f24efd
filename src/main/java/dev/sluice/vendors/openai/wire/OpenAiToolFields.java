package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The {@code tools} and {@code tool_choice} of a body as OpenAI's chat and Responses APIs both
 * take them: tools are objects of type {@code function}, and a choice is the keyword
 * {@code auto}, {@code none} or {@code required} or an object of type {@code function} forcing
 * one tool. Each API keeps a function's name and schema in its own place, which its decoder
 * reads.
 */
public final class OpenAiToolFields {
    private OpenAiToolFields() {}

    /** Reads one function tool, an object whose {@code type} is {@code function}, found at {@code path}. */
    @FunctionalInterface
    public interface FunctionReader {
        Tool read(ObjectNode tool, String path);
    }

    /**
     * The function tools, in order; empty when the body has none.
     *
     * @param notFunction what a refusal says a tool of another type should have been
     * @throws IllegalArgumentException naming the first tool that is not an object of type {@code function}
     */
    public static List<Tool> functions(JsonNode tools, String notFunction, FunctionReader function) {
        if (absent(tools)) {
            return List.of();
        }
        ArrayNode array = array(tools, "tools");
        List<Tool> decoded = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            String path = path("tools", i);
            ObjectNode tool = object(array.get(i), path);
            if (!"function".equals(text(tool, "type", path))) {
                throw refused(path(path, "type"), tool.get("type"), notFunction);
            }
            decoded.add(function.read(tool, path));
        }
        return decoded;
    }

    /**
     * The choice, or null when the body makes none.
     *
     * @param expected what a refusal says {@code tool_choice} should have been
     * @param forced   the forced tool's name, read from a {@code {"type": "function", ...}} object
     * @throws IllegalArgumentException naming {@code tool_choice} when it is none of these
     */
    public static ToolChoice choice(JsonNode choice, String expected, Function<JsonNode, String> forced) {
        if (absent(choice)) {
            return null;
        }
        if (choice.isTextual()) {
            return switch (choice.textValue()) {
                case "auto" -> ToolChoice.AUTO;
                case "none" -> ToolChoice.NONE;
                case "required" -> ToolChoice.REQUIRED;
                default -> throw refused("tool_choice", choice, expected);
            };
        }
        if (!choice.isObject() || !"function".equals(choice.path("type").asText(null))) {
            throw refused("tool_choice", choice, expected);
        }
        return ToolChoice.tool(forced.apply(choice));
    }
}
