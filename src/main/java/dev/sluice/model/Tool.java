package dev.sluice.model;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A function the model may call: OpenAI's {@code tools[].function}, Anthropic's {@code tools[]},
 * Gemini's {@code functionDeclarations[]}.
 *
 * @param name        what the model calls it by
 * @param description what it does, for the model; null when none was given
 * @param parameters  the JSON schema of its arguments, or null when it takes none; held as given, not to be changed
 * @param strict      whether the vendor must hold the arguments to the schema exactly; null when the caller did not say
 * @param cache       the prompt-cache breakpoint after this tool's definition, or null
 */
public record Tool(String name, String description, JsonNode parameters, Boolean strict, CacheControl cache) {
    public Tool {
        Checks.notBlank(name, "name");
        if (parameters != null && !parameters.isObject()) {
            throw new IllegalArgumentException("parameters: " + parameters + " (expected: a JSON schema object)");
        }
    }

    /** A tool with no cache breakpoint. */
    public Tool(String name, String description, JsonNode parameters, Boolean strict) {
        this(name, description, parameters, strict, null);
    }
}
