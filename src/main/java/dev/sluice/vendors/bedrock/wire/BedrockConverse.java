package dev.sluice.vendors.bedrock.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;

/**
 * Amazon Bedrock's Converse and ConverseStream APIs, translated to and from the internal model
 * (AWS's Bedrock Runtime API reference: {@code Converse}, {@code ConverseStream},
 * {@code ContentBlock}, {@code ToolConfiguration}, {@code TokenUsage}). Pure translation: the
 * adapter in {@code dev.sluice.provider.bedrock} does the HTTP, the signing and the framing.
 *
 * <p>Encoding refuses what Converse cannot take with an {@link IllegalArgumentException} naming
 * the caller's field (an image URL, a tool call whose arguments are not a JSON object), and lists
 * the OpenAI parameters it has no place for in {@link ConverseCall#unsupported()}.
 */
public final class BedrockConverse {
    private BedrockConverse() {}

    /** A chat request as a Converse body for the model {@code modelId} (a model id, inference profile or ARN). */
    public static ConverseCall encodeRequest(ChatRequest request, String modelId) {
        return ConverseRequests.encode(request, modelId);
    }

    /**
     * A Converse answer as a {@link ChatAnswer}.
     *
     * @param id           the answer's id (Converse gives none)
     * @param model        the model to name in the answer
     * @param responseTool the tool carrying a {@code response_format} answer, or null
     */
    public static ChatAnswer decodeAnswer(JsonNode body, String id, String model, String responseTool) {
        return ConverseAnswers.decode(body, id, model, responseTool);
    }

    /** The name of the tool a request's {@code response_format} is asked through, or null when it asks none. */
    public static String responseTool(JsonNode openAiBody) {
        JsonNode format = openAiBody.path("response_format");
        return switch (format.path("type").asText("")) {
            case "json_object" -> ConverseExtras.JSON_TOOL;
            case "json_schema" -> {
                String name = format.path("json_schema").path("name").asText("");
                yield name.isBlank() ? ConverseExtras.JSON_TOOL : name;
            }
            default -> null;
        };
    }
}
