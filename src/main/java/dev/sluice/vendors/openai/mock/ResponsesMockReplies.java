package dev.sluice.vendors.openai.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockAnswer;
import dev.sluice.vendors.mock.MockCall;
import dev.sluice.vendors.mock.MockReplies;
import dev.sluice.vendors.mock.MockTokens;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds the Responses API mock's answers as OpenAI's {@code response} objects. The n-th
 * answer is {@code resp_mock_<n>} and holds one output item: a {@code message}
 * ({@code msg_mock_<n>}, one {@code output_text} part with the chat mock's reply text), or
 * a {@code function_call} ({@code fc_mock_<n>}, {@code call_id} {@code call_mock_<n>},
 * the chat mock's arguments). The object repeats the request's settings, OpenAI's defaults
 * where it gave none, and counts {@code usage} as the chat mock does. Unless the request set
 * {@code store: false}, an answer's conversation is remembered under its id once built.
 */
public final class ResponsesMockReplies {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final MockReplies chat;
    private final Clock clock;
    private final ResponsesMockStore store;
    private final AtomicLong ids = new AtomicLong();

    public ResponsesMockReplies(MockReplies chat, Clock clock, ResponsesMockStore store) {
        this.chat = chat;
        this.clock = clock;
        this.store = store;
    }

    /**
     * One answer, built once and written whole or as events.
     *
     * @param answer    the response's id, and the text or the tool call
     * @param itemId    the output item's id
     * @param createdAt seconds since the epoch
     */
    record Answered(ResponsesMockCall call, MockAnswer answer, String itemId, long createdAt) {}

    /** The answer to {@code call} under fresh ids; remembered for {@code previous_response_id} unless {@code store} is false. */
    public Answered answerTo(ResponsesMockCall call) {
        long n = ids.incrementAndGet();
        MockCall read = call.call();
        MockAnswer answer = read.toolToCall() == null
                ? MockAnswer.text("resp_mock_" + n, chat.replyText(read))
                : MockAnswer.toolCall("resp_mock_" + n, new MockAnswer.ToolCall("call_mock_" + n, read.toolToCall(),
                        MockReplies.toolArguments(read.lastUserText())));
        String itemId = (answer.callsATool() ? "fc_mock_" : "msg_mock_") + n;
        Answered answered = new Answered(call, answer, itemId, clock.instant().getEpochSecond());
        if (call.stored()) {
            List<JsonNode> conversation = new ArrayList<>(call.conversation());
            conversation.add(outputItem(answered, true));
            store.remember(answer.id(), conversation);
        }
        return answered;
    }

    /**
     * The {@code response} object: completed, with its output and usage; or, as a stream
     * opens, {@code in_progress} with no output and null usage.
     */
    public static ObjectNode response(Answered answered, boolean completed) {
        JsonNode request = answered.call().body();
        ObjectNode response = NODES.objectNode()
                .put("id", answered.answer().id())
                .put("object", "response")
                .put("created_at", answered.createdAt())
                .put("status", completed ? "completed" : "in_progress");
        response.putNull("error");
        response.putNull("incomplete_details");
        response.set("instructions", echo(request, "instructions", NODES.nullNode()));
        response.set("max_output_tokens", echo(request, "max_output_tokens", NODES.nullNode()));
        response.put("model", answered.call().call().model());
        ArrayNode output = response.putArray("output");
        if (completed) {
            output.add(outputItem(answered, true));
        }
        response.set("parallel_tool_calls", echo(request, "parallel_tool_calls", NODES.booleanNode(true)));
        response.set("previous_response_id", echo(request, "previous_response_id", NODES.nullNode()));
        response.set("store", echo(request, "store", NODES.booleanNode(true)));
        response.set("temperature", echo(request, "temperature", NODES.numberNode(1.0)));
        response.set("text", echo(request, "text", NODES.objectNode().set("format", NODES.objectNode().put("type", "text"))));
        response.set("tool_choice", echo(request, "tool_choice", NODES.textNode("auto")));
        response.set("tools", echo(request, "tools", NODES.arrayNode()));
        response.set("top_p", echo(request, "top_p", NODES.numberNode(1.0)));
        response.set("truncation", echo(request, "truncation", NODES.textNode("disabled")));
        if (completed) {
            response.set("usage", usage(answered));
        } else {
            response.putNull("usage");
        }
        response.set("metadata", echo(request, "metadata", NODES.objectNode()));
        return response;
    }

    /**
     * The answer's output item: done, as {@code output} and {@code response.output_item.done}
     * carry it; or just begun ({@code in_progress}, no content, empty arguments), as
     * {@code response.output_item.added} does.
     */
    static ObjectNode outputItem(Answered answered, boolean done) {
        MockAnswer answer = answered.answer();
        String status = done ? "completed" : "in_progress";
        if (answer.callsATool()) {
            MockAnswer.ToolCall call = answer.toolCall();
            return NODES.objectNode()
                    .put("id", answered.itemId())
                    .put("type", "function_call")
                    .put("status", status)
                    .put("call_id", call.id())
                    .put("name", call.name())
                    .put("arguments", done ? call.arguments() : "");
        }
        ObjectNode message = NODES.objectNode()
                .put("id", answered.itemId())
                .put("type", "message")
                .put("status", status)
                .put("role", "assistant");
        ArrayNode content = message.putArray("content");
        if (done) {
            content.add(textPart(answer.text()));
        }
        return message;
    }

    /** An {@code output_text} content part. */
    static ObjectNode textPart(String text) {
        ObjectNode part = NODES.objectNode().put("type", "output_text").put("text", text);
        part.putArray("annotations");
        return part;
    }

    /**
     * Tokens as the chat mock counts them: the prompt's texts in, the text or the call's
     * arguments out. Nothing is cached: {@code cached_tokens} and {@code cache_write_tokens}
     * (which OpenAI's current SDKs require) are 0.
     */
    private static ObjectNode usage(Answered answered) {
        int input = MockTokens.estimate(answered.call().call().promptChars());
        int output = MockTokens.estimate(answered.answer().completionChars());
        ObjectNode usage = NODES.objectNode().put("input_tokens", input);
        usage.putObject("input_tokens_details").put("cached_tokens", 0).put("cache_write_tokens", 0);
        usage.put("output_tokens", output);
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        return usage.put("total_tokens", input + output);
    }

    /** The request's value of {@code field}, or {@code fallback} when it gave none (or null). */
    private static JsonNode echo(JsonNode request, String field, JsonNode fallback) {
        JsonNode value = request.path(field);
        return value.isMissingNode() || value.isNull() ? fallback : value;
    }
}
