package dev.sluice.vendors.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.Message;
import java.util.List;

/**
 * OpenAI's Responses API ({@code POST /v1/responses}), translated to and from the internal
 * model, as OpenAI's API reference describes it and as LiteLLM bridges it onto chat
 * completions. Pure translation: no HTTP, no storage.
 *
 * <p>The entry direction (a caller speaking the Responses API, served by any vendor) is
 * {@link #decodeRequest}, {@link #encodeResponse} and {@link #streamEncoder}; a follow-up
 * ({@code previous_response_id}) is served by keeping {@link #conversationOf} a response
 * (stored with {@link #encodeConversation}) and putting it back with
 * {@link ResponsesRequest#withEarlierTurns}. The other direction, for accounting a call an
 * upstream served natively, is {@link #decodeResponse} and {@link #streamDecoder}.
 *
 * <p>Decoding refuses a malformed or unserved value with an {@link IllegalArgumentException}
 * naming its JSON path ({@code input[2].type: "computer_call" (expected: message, function_call,
 * function_call_output or reasoning)}), which callers answer with a 400.
 */
public final class ResponsesApi {
    private ResponsesApi() {}

    /**
     * A Responses API request body. Settings chat completions also has are carried under their
     * names there, so {@code OpenAiChat.encodeRequest(request.chat())} is a valid chat-completions
     * body; storage and output options ({@code store}, {@code include}, {@code truncation}, ...)
     * are let go; hosted tools, stored prompts, conversation objects and background runs are refused.
     */
    public static ResponsesRequest decodeRequest(JsonNode body) {
        return ResponsesRequestDecoder.decode(body);
    }

    /**
     * {@code chat} with {@code earlier} (a stored conversation) after its leading system and
     * developer messages, where the instructions are, and before the rest.
     */
    public static ChatRequest withEarlierTurns(ChatRequest chat, List<Message> earlier) {
        return ResponsesConversation.withEarlierTurns(chat, earlier);
    }

    /**
     * {@code answer} as the {@code response} object for {@code request}: its id, time and model
     * are {@code meta}'s, not the upstream's; the request's settings are repeated back.
     */
    public static ObjectNode encodeResponse(ChatAnswer answer, ResponsesRequest request, ResponseMeta meta) {
        return ResponsesAnswerEncoder.encode(answer, request, meta);
    }

    /** The turns a follow-up to this response carries: the request's input (not its instructions) and the answer. */
    public static List<Message> conversationOf(ResponsesRequest request, ChatAnswer answer) {
        return ResponsesConversation.of(request, answer);
    }

    /** A conversation to keep, as a JSON array of Responses API input items. */
    public static ArrayNode encodeConversation(List<Message> messages) {
        return ResponsesConversation.encode(messages);
    }

    /** A conversation kept by {@link #encodeConversation}. */
    public static List<Message> decodeConversation(JsonNode stored) {
        return ResponsesConversation.decode(stored);
    }

    /** A writer of one stream's events for {@code request}. */
    public static ResponsesStreamEncoder streamEncoder(ResponsesRequest request, ResponseMeta meta) {
        return new ResponsesStreamEncoder(request, meta);
    }

    /** A {@code response} object from an upstream serving the Responses API, as a {@link ChatAnswer}. */
    public static ChatAnswer decodeResponse(JsonNode response) {
        return ResponsesAnswerDecoder.decode(response);
    }

    /** A reader of one stream from an upstream serving the Responses API. */
    public static ResponsesStreamDecoder streamDecoder() {
        return new ResponsesStreamDecoder();
    }
}
