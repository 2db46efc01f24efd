package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.refused;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.ToolChoice;
import java.util.function.Function;

/**
 * A {@code tool_choice} as OpenAI's chat and Responses APIs both take it: the keyword
 * {@code auto}, {@code none} or {@code required}, or an object of type {@code function}
 * forcing one tool, whose name each API keeps in its own place.
 */
public final class OpenAiToolChoices {
    private OpenAiToolChoices() {}

    /**
     * The choice, or null when the body makes none.
     *
     * @param expected what a refusal says {@code tool_choice} should have been
     * @param forced   the forced tool's name, read from a {@code {"type": "function", ...}} object
     * @throws IllegalArgumentException naming {@code tool_choice} when it is none of these
     */
    public static ToolChoice read(JsonNode choice, String expected, Function<JsonNode, String> forced) {
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
