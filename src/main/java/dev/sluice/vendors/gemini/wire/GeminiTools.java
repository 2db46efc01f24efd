package dev.sluice.vendors.gemini.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import java.util.List;

/**
 * The caller's tools as one {@code tools[].functionDeclarations} list, and {@code tool_choice}
 * as {@code toolConfig.functionCallingConfig}: {@code auto} is {@code AUTO}, {@code none}
 * {@code NONE}, {@code required} {@code ANY}, and a named function {@code ANY} limited to it
 * by {@code allowedFunctionNames}. Parameter schemas are cut to what Gemini's schema takes.
 */
final class GeminiTools {
    private GeminiTools() {}

    static void encode(List<Tool> tools, ToolChoice choice, ObjectNode body) {
        if (!tools.isEmpty()) {
            ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
            for (Tool tool : tools) {
                ObjectNode declaration = declarations.addObject().put("name", tool.name());
                if (tool.description() != null) {
                    declaration.put("description", tool.description());
                }
                if (tool.parameters() != null && hasProperties(tool)) {
                    declaration.set("parameters", GeminiSchema.clean(tool.parameters()));
                }
            }
        }
        if (choice != null && !tools.isEmpty()) { // a tool_choice with no tools configures nothing Gemini could call
            ObjectNode config = body.putObject("toolConfig").putObject("functionCallingConfig");
            switch (choice.mode()) {
                case AUTO -> config.put("mode", "AUTO");
                case NONE -> config.put("mode", "NONE");
                case REQUIRED -> config.put("mode", "ANY");
                case TOOL -> {
                    config.put("mode", "ANY");
                    config.putArray("allowedFunctionNames").add(choice.toolName());
                }
            }
        }
    }

    /** Gemini refuses an object schema with no properties; a function without arguments declares none. */
    private static boolean hasProperties(Tool tool) {
        return !"object".equals(tool.parameters().path("type").asText()) || tool.parameters().path("properties").size() > 0;
    }
}
