package dev.sluice.vendors.gemini.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A chat request written for Gemini.
 *
 * @param body        the {@code GenerateContentRequest} body
 * @param unsupported the caller's parameters Gemini has no place for, left out of {@code body}
 *                    in the caller's order; the adapter refuses the call or drops them
 */
public record GeminiRequest(ObjectNode body, List<String> unsupported) {
    public GeminiRequest {
        unsupported = List.copyOf(unsupported);
    }
}
