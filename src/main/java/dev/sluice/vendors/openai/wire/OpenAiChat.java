package dev.sluice.vendors.openai.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;

/**
 * OpenAI's chat completions, translated to and from the internal model: the one translation
 * an OpenAI-speaking entry API or vendor needs to meet every other dialect. A call whose entry
 * API and vendor both speak OpenAI never comes here; its body passes through natively.
 *
 * <p>Decoding refuses a malformed value with an {@link IllegalArgumentException} naming its
 * JSON path ({@code messages[1].tool_calls[0].function.arguments: 42 (expected: a string)}),
 * which callers answer with a 400. Encoding refuses what OpenAI has no place for (an image in
 * a tool result, say) the same way, naming the part of the internal value.
 *
 * <p>Decode then encode gives back an equal JSON tree for a body written the way this class
 * writes: a single text part as a plain string, {@code stop} as an array,
 * {@code max_completion_tokens} for the token limit, assistant {@code content} left out beside
 * tool calls. Other spellings read the same and come back in that form.
 */
public final class OpenAiChat {
    private OpenAiChat() {}

    /** A chat-completions request body into a {@link ChatRequest}; unknown fields are kept as extra fields. */
    public static ChatRequest decodeRequest(JsonNode body) {
        return OpenAiChatRequests.decode(body);
    }

    /** A {@link ChatRequest} as a chat-completions request body. */
    public static ObjectNode encodeRequest(ChatRequest request) {
        return OpenAiChatRequests.encode(request);
    }

    /** A chat-completion answer body into a {@link ChatAnswer}. */
    public static ChatAnswer decodeAnswer(JsonNode body) {
        return OpenAiChatAnswers.decode(body);
    }

    /** A {@link ChatAnswer} as a chat-completion answer body created at {@code created} (Unix seconds). */
    public static ObjectNode encodeAnswer(ChatAnswer answer, long created) {
        return OpenAiChatAnswers.encode(answer, created);
    }

    /** A decoder for the chunks of one stream. */
    public static OpenAiChatChunkDecoder chunkDecoder() {
        return new OpenAiChatChunkDecoder();
    }

    /** An encoder for the chunks of one stream created at {@code created} (Unix seconds). */
    public static OpenAiChatChunkEncoder chunkEncoder(long created) {
        return new OpenAiChatChunkEncoder(created);
    }
}
