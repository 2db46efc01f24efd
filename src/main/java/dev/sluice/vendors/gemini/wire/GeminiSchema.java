package dev.sluice.vendors.gemini.wire;

import static dev.sluice.vendors.gemini.wire.GeminiRequests.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;

/**
 * A JSON schema cut to the OpenAPI subset Gemini's {@code Schema} takes, as LiteLLM cuts it:
 * Gemini answers 400 to a schema carrying a field it does not know
 * ({@code additionalProperties}, {@code $schema}, {@code strict}, ...). So {@code $ref}s are
 * replaced by the {@code $defs} (or {@code definitions}) they point at, a type list or an
 * {@code anyOf} holding {@code null} becomes {@code nullable}, {@code const} becomes a
 * one-value {@code enum}, and every other unknown field is left out. The caller's schema is
 * not changed.
 */
final class GeminiSchema {
    /** The fields of Gemini's {@code Schema} object. */
    static final Set<String> KNOWN = Set.of("type", "format", "title", "description", "nullable", "enum", "maxItems",
            "minItems", "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
            "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum");

    /** How deep {@code $ref}s are followed; a recursive schema cannot be written out for Gemini. */
    private static final int MAX_DEPTH = 32;

    private GeminiSchema() {}

    static ObjectNode clean(JsonNode schema) {
        JsonNode defs = schema.has("$defs") ? schema.get("$defs") : schema.path("definitions");
        return clean(schema, defs, 0);
    }

    private static ObjectNode clean(JsonNode schema, JsonNode defs, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("response_format or tool parameters: a schema nested deeper than " + MAX_DEPTH
                    + " levels, or a recursive $ref (expected: a schema Gemini can take without references)");
        }
        JsonNode resolved = resolve(schema, defs);
        ObjectNode cleaned = NODES.objectNode();
        for (Map.Entry<String, JsonNode> field : resolved.properties()) {
            String name = field.getKey();
            JsonNode value = field.getValue();
            switch (name) {
                case "properties" -> {
                    ObjectNode properties = cleaned.putObject("properties");
                    value.properties().forEach(p -> properties.set(p.getKey(), clean(p.getValue(), defs, depth + 1)));
                }
                case "items" -> cleaned.set("items", clean(value, defs, depth + 1));
                case "anyOf" -> anyOf(value, defs, depth, cleaned);
                case "type" -> type(value, cleaned);
                case "const" -> cleaned.putArray("enum").add(value);
                default -> {
                    if (KNOWN.contains(name)) {
                        cleaned.set(name, value.deepCopy());
                    }
                }
            }
        }
        return cleaned;
    }

    private static JsonNode resolve(JsonNode schema, JsonNode defs) {
        JsonNode ref = schema.path("$ref");
        if (!ref.isTextual()) {
            return schema;
        }
        String name = ref.textValue().substring(ref.textValue().lastIndexOf('/') + 1);
        JsonNode target = defs.path(name);
        if (!target.isObject()) {
            throw new IllegalArgumentException("$ref: " + ref.textValue() + " (expected: a reference to $defs or definitions"
                    + " in the same schema)");
        }
        return target;
    }

    /** {@code ["string", "null"]} is Gemini's {@code type: string, nullable: true}. */
    private static void type(JsonNode value, ObjectNode cleaned) {
        if (!value.isArray()) {
            cleaned.set("type", value.deepCopy());
            return;
        }
        for (JsonNode type : value) {
            if ("null".equals(type.asText())) {
                cleaned.put("nullable", true);
            } else if (!cleaned.has("type")) {
                cleaned.put("type", type.asText());
            }
        }
    }

    /** An {@code anyOf} of one schema and {@code null} is that schema made nullable; a wider one stays an {@code anyOf}. */
    private static void anyOf(JsonNode value, JsonNode defs, int depth, ObjectNode cleaned) {
        ArrayNode options = NODES.arrayNode();
        boolean nullable = false;
        for (JsonNode option : value) {
            if ("null".equals(option.path("type").asText())) {
                nullable = true;
            } else {
                options.add(clean(option, defs, depth + 1));
            }
        }
        if (options.size() == 1) {
            cleaned.setAll((ObjectNode) options.get(0));
        } else if (!options.isEmpty()) {
            cleaned.set("anyOf", options);
        }
        if (nullable) {
            cleaned.put("nullable", true);
        }
    }
}
