package dev.sluice.vendors.openai.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockCall;
import dev.sluice.vendors.mock.MockRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One call of OpenAI's Responses API ({@code POST /v1/responses}) as the mock reads it. The
 * conversation is the previous response's (when {@code previous_response_id} names one)
 * followed by this call's {@code input}: a string is one user message; an array holds
 * {@code message} items (the {@code type} may be left out; {@code content} a string or
 * {@code input_text}/{@code output_text} parts), {@code function_call} items and
 * {@code function_call_output} items ({@code output} a string or text parts). Other item
 * types are carried along and not read.
 *
 * <p>{@link #call()} is the same reading in the shape the chat mock uses, so the modes'
 * checks and the reply text are the chat's: the prompt's texts are the
 * {@code instructions}, every message's text and every tool output; the text echoed is the
 * last user message's; a function tool is called (the one a
 * {@code {"type":"function","name":X}} {@code tool_choice} names, else the first) unless
 * {@code tool_choice} is {@code "none"} or the conversation ends with
 * {@code function_call_output} items, whose outputs are then the text answered.
 *
 * @param call         the chat-shaped reading: model, stream, texts, echoed text, tool to call, tool results
 * @param body         the request, whose settings the response object repeats
 * @param conversation the previous response's conversation, then this call's input items
 */
public record ResponsesMockCall(MockCall call, JsonNode body, List<JsonNode> conversation) {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** @param earlier the conversation of the response {@code previous_response_id} names; empty when it names none */
    public static ResponsesMockCall of(JsonNode body, List<JsonNode> earlier) {
        List<JsonNode> conversation = new ArrayList<>(earlier);
        conversation.addAll(inputItems(body.path("input")));
        List<String> texts = new ArrayList<>();
        if (body.path("instructions").isTextual()) {
            texts.add(body.path("instructions").asText());
        }
        String lastUserText = "";
        for (JsonNode item : conversation) {
            switch (type(item)) {
                case "message" -> {
                    String text = MockCall.contentText(item.path("content"));
                    texts.add(text);
                    if ("user".equals(item.path("role").asText())) {
                        lastUserText = text;
                    }
                }
                case "function_call_output" -> texts.add(MockCall.contentText(item.path("output")));
                default -> { } // function calls and other items carry no prompt text
            }
        }
        String toolResults = trailingToolOutputs(conversation);
        String tool = toolResults == null ? MockCall.toolToCall(body, UnaryOperator.identity()) : null;
        String model = body.path("model").asText(MockCall.UNNAMED_MODEL);
        MockCall call = new MockCall(MockRoute.Kind.RESPONSES, model, body.path("stream").asBoolean(false), false,
                List.copyOf(texts), lastUserText, texts.stream().mapToInt(String::length).sum(), tool, toolResults);
        return new ResponsesMockCall(call, body, List.copyOf(conversation));
    }

    /** The {@code previous_response_id} the call names, or null. */
    String previousResponseId() {
        JsonNode id = body.path("previous_response_id");
        return id.isTextual() ? id.asText() : null;
    }

    /** {@code store} is true unless the caller set it false; a response not stored cannot be continued. */
    boolean stored() {
        return body.path("store").asBoolean(true);
    }

    /** An item's type; a message may leave it out. */
    static String type(JsonNode item) {
        return item.path("type").asText(item.has("role") ? "message" : "");
    }

    /** The input as items: a string becomes one user message; a missing or null input is none. */
    private static List<JsonNode> inputItems(JsonNode input) {
        if (input.isTextual()) {
            ObjectNode message = NODES.objectNode().put("type", "message").put("role", "user");
            message.set("content", input);
            return List.of(message);
        }
        List<JsonNode> items = new ArrayList<>();
        input.forEach(items::add);
        return items;
    }

    /** The outputs of the {@code function_call_output} items that end the conversation, joined; null when it ends otherwise. */
    private static String trailingToolOutputs(List<JsonNode> conversation) {
        int first = conversation.size();
        while (first > 0 && "function_call_output".equals(type(conversation.get(first - 1)))) {
            first--;
        }
        if (first == conversation.size()) {
            return null;
        }
        StringBuilder outputs = new StringBuilder();
        for (JsonNode item : conversation.subList(first, conversation.size())) {
            outputs.append(MockCall.contentText(item.path("output")));
        }
        return outputs.toString();
    }
}
