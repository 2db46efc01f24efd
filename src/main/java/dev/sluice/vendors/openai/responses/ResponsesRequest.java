package dev.sluice.vendors.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Responses API request as decoded: the chat call it asks for, and what of the request the
 * response object repeats back to the caller.
 *
 * @param chat               the call in the internal model; {@code instructions}, when given, is its first message
 * @param model              the model the caller named
 * @param instructions       the request's {@code instructions}, or null
 * @param previousResponseId the response this one follows, or null
 * @param store              whether the caller lets the response be kept for a follow-up ({@code true} unless it said not)
 * @param metadata           the request's {@code metadata} object, or null
 * @param echoed             the request's {@code tools}, {@code tool_choice}, {@code text}, {@code reasoning},
 *                           {@code temperature}, {@code top_p}, {@code max_output_tokens},
 *                           {@code parallel_tool_calls} and {@code user}, as given; a field the caller left out is absent.
 *                           Held as given, not to be changed.
 */
public record ResponsesRequest(ChatRequest chat, String model, String instructions, String previousResponseId, boolean store,
        JsonNode metadata, ObjectNode echoed) {
    public ResponsesRequest {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(echoed, "echoed");
    }

    /** How many of {@link ChatRequest#messages()} come from {@code instructions}, not from {@code input}: 1 or 0. */
    int instructionMessages() {
        return instructions == null ? 0 : 1;
    }

    /**
     * This request with {@code earlier} (a stored conversation, for {@code previous_response_id})
     * placed after the instructions and before the new input.
     */
    public ResponsesRequest withEarlierTurns(List<Message> earlier) {
        List<Message> messages = new ArrayList<>(chat.messages());
        messages.addAll(instructionMessages(), earlier);
        ChatRequest joined = new ChatRequest(chat.model(), messages, chat.tools(), chat.toolChoice(), chat.sampling(), chat.stream(),
                chat.extra());
        return new ResponsesRequest(joined, model, instructions, previousResponseId, store, metadata, echoed);
    }
}
