package dev.sluice.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.ApiError;
import java.io.IOException;
import java.util.Optional;

/**
 * A request body read as JSON, with the error a caller is shown when it is not JSON: a 400
 * {@code invalid_json} giving the parser's reason and where ({@link JsonProblems#describe}).
 * What a body that holds no value, or a value of the wrong type, means is the caller's to say.
 */
public final class JsonBody {
    private JsonBody() {}

    /** The value the body holds; empty when it holds none (no bytes, or only white space). */
    public static Optional<JsonNode> parse(byte[] bytes) {
        if (bytes.length == 0) {
            return Optional.empty();
        }
        JsonNode root;
        try {
            root = Json.parse(bytes);
        } catch (JsonProcessingException e) {
            throw unparsable(JsonProblems.describe(e));
        } catch (IOException e) {
            throw unparsable(e.getMessage());
        }
        return root == null || root.isMissingNode() ? Optional.empty() : Optional.of(root);
    }

    private static ApiError unparsable(String reason) {
        return ApiError.invalidRequest("We could not parse the JSON body of your request: " + reason, null, "invalid_json");
    }
}
