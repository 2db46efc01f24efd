package dev.sluice.vendors.gemini.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;

/**
 * Gemini's {@code generateContent} API (Google AI Studio and Vertex AI speak the same body),
 * translated to and from the internal model. Pure translation: no HTTP, no clock.
 *
 * <p>Gemini binds a function's response to its call by the function's name, not by an id,
 * and gives its calls no id an OpenAI caller could send back. The decoders therefore make one
 * ({@link ToolCallIds}) and the encoder finds the function a {@code role: tool} message
 * answers by looking up its {@code tool_call_id} among the earlier assistant tool calls.
 */
public final class GeminiChat {
    private GeminiChat() {}

    /** A chat request as a {@code GenerateContentRequest} body, with what Gemini cannot take left out and named. */
    public static GeminiRequest encodeRequest(ChatRequest request) {
        return GeminiRequests.encode(request);
    }

    /**
     * A {@code GenerateContentResponse} as one answer.
     *
     * @param model the model asked for, used when the answer names none
     * @throws GeminiBlocked when Gemini refused the prompt or withheld the whole answer for safety
     */
    public static ChatAnswer decodeAnswer(JsonNode body, String model, ToolCallIds ids) {
        return GeminiAnswers.decode(body, model, ids);
    }

    /** A decoder for the chunks of one {@code streamGenerateContent?alt=sse} stream. */
    public static GeminiChunkDecoder chunkDecoder(String model, ToolCallIds ids) {
        return new GeminiChunkDecoder(model, ids);
    }
}
