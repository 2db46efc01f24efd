package dev.sluice.accounts.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonFields;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Map.Entry;

/**
 * Reads LiteLLM's model aliases from a key or team API body: {@code {"gpt-4": "gpt-4o"}}, each
 * name a call may send in {@code model} to the model it stands for. A key's are its
 * {@code aliases}, a team's its {@code model_aliases}; both are refused alike, naming the
 * entry ({@code model_aliases.gpt-4}) when its model is not a name.
 */
public final class ModelAliases {
    private ModelAliases() {}

    /** The aliases at {@code path}, in the order the body gives them. */
    public static Map<String, String> read(JsonNode value, String path) {
        ObjectNode object = JsonFields.object(value, path);
        Map<String, String> aliases = new LinkedHashMap<>();
        for (Entry<String, JsonNode> entry : object.properties()) {
            if (entry.getKey().isBlank()) {
                throw ApiError.invalidRequest("Invalid '" + path + "': an alias is blank (expected: model names).",
                        path, "invalid_value");
            }
            aliases.put(entry.getKey(), JsonFields.name(entry.getValue(), path + "." + entry.getKey()));
        }
        return aliases;
    }
}
