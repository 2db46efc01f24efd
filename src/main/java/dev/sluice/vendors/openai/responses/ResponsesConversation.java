package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The conversation a response leaves for a follow-up ({@code previous_response_id}) to carry
 * on, and its stored form: the Responses API's own input items, so that what is stored reads
 * back through the same decoder as a caller's {@code input}. Text, images, tool calls, tool
 * results and reasoning (with signatures and redacted data, see {@link ResponsesReasoning})
 * come back as they went; a message's {@code name} and cache breakpoints, which input items
 * have no place for, do not.
 */
final class ResponsesConversation {
    private ResponsesConversation() {}

    /** The request's own turns (instructions left out, as OpenAI does not carry them over) and the answer as one assistant turn. */
    static List<Message> of(ResponsesRequest request, ChatAnswer answer) {
        List<Message> messages = request.chat().messages();
        List<Message> turns = new ArrayList<>(messages.subList(request.instructionMessages(), messages.size()));
        turns.add(new Message(Role.ASSISTANT, answer.content(), null));
        return turns;
    }

    /** {@code chat} with {@code earlier} after its leading system and developer messages and before the rest. */
    static ChatRequest withEarlierTurns(ChatRequest chat, List<Message> earlier) {
        int at = 0;
        while (at < chat.messages().size() && chat.messages().get(at).role().instructs()) {
            at++;
        }
        List<Message> messages = new ArrayList<>(chat.messages());
        messages.addAll(at, earlier);
        return new ChatRequest(chat.model(), messages, chat.tools(), chat.toolChoice(), chat.sampling(), chat.stream(), chat.extra());
    }

    static List<Message> decode(JsonNode stored) {
        return stored.isArray() && stored.isEmpty() ? List.of() : ResponsesInput.decode(stored, "conversation");
    }

    static ArrayNode encode(List<Message> messages) {
        ArrayNode items = NODES.arrayNode();
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            String where = "messages[" + i + "].parts";
            if (message.role() == Role.ASSISTANT) {
                assistant(message.parts(), where, items);
            } else {
                others(message, where, items);
            }
        }
        return items;
    }

    /** Tool results as {@code function_call_output} items first, then the rest as one message (none for a tool message). */
    private static void others(Message message, String where, ArrayNode items) {
        List<ContentPart> rest = new ArrayList<>();
        for (ContentPart part : message.parts()) {
            if (part instanceof ToolResult result) {
                ObjectNode output = items.addObject().put("type", "function_call_output").put("call_id", result.toolCallId());
                output.set("output", inputParts(result.content(), where));
            } else {
                rest.add(part);
            }
        }
        if (message.role() == Role.TOOL || (rest.isEmpty() && !message.parts().isEmpty())) {
            return;
        }
        ObjectNode item = items.addObject().put("type", "message").put("role", message.role().name().toLowerCase(Locale.ROOT));
        item.set("content", inputParts(rest, where));
    }

    private static ArrayNode inputParts(List<ContentPart> parts, String where) {
        ArrayNode array = NODES.arrayNode();
        for (int i = 0; i < parts.size(); i++) {
            switch (parts.get(i)) {
                case Text text -> array.addObject().put("type", "input_text").put("text", text.text());
                case Image image -> {
                    ObjectNode part = array.addObject().put("type", "input_image").put("image_url",
                            image.inline() ? "data:" + image.mediaType() + ";base64," + image.data() : image.url());
                    if (image.detail() != null) {
                        part.put("detail", image.detail());
                    }
                }
                default -> throw new IllegalArgumentException(where + "[" + i + "]: " + parts.get(i).getClass().getSimpleName()
                        + " (expected: text or image)");
            }
        }
        return array;
    }

    /** An assistant turn as items in its order: reasoning, a message for each run of text, function calls. */
    private static void assistant(List<ContentPart> parts, String where, ArrayNode items) {
        ArrayNode texts = null;
        for (int i = 0; i < parts.size(); i++) {
            if (!(parts.get(i) instanceof Text)) {
                texts = null;
            }
            switch (parts.get(i)) {
                case Text text -> {
                    if (texts == null) {
                        texts = items.addObject().put("type", "message").put("role", "assistant").putArray("content");
                    }
                    texts.addObject().put("type", "output_text").put("text", text.text());
                }
                case Reasoning reasoning -> items.add(ResponsesReasoning.encode(reasoning, null));
                case ToolCall call -> items.addObject().put("type", "function_call").put("call_id", call.id())
                        .put("name", call.name()).put("arguments", call.arguments());
                default -> throw new IllegalArgumentException(where + "[" + i + "]: " + parts.get(i).getClass().getSimpleName()
                        + " (expected: text, reasoning or a tool call from the assistant)");
            }
        }
        if (parts.isEmpty()) {
            items.addObject().put("type", "message").put("role", "assistant").putArray("content");
        }
    }
}
