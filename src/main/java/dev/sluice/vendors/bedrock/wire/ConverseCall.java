package dev.sluice.vendors.bedrock.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A chat request written for Bedrock's Converse API.
 *
 * @param body         the Converse body ({@code messages}, {@code system}, {@code inferenceConfig}, ...)
 * @param unsupported  the caller's OpenAI parameters Converse has no place for, left out of {@code body}; the
 *                     adapter refuses the call for them unless {@code drop_params} lets it drop them
 * @param responseTool the name of the tool that carries a structured output asked with {@code response_format},
 *                     whose input is the answer's text; null when none was asked
 */
public record ConverseCall(ObjectNode body, List<String> unsupported, String responseTool) {
    public ConverseCall {
        unsupported = List.copyOf(unsupported);
    }
}
