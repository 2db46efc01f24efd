package dev.sluice.vendors.openai.mock;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockAnswer;
import dev.sluice.vendors.mock.MockJson;
import dev.sluice.vendors.mock.MockStreamEvents;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A Responses API mock answer as OpenAI streams it: each event is {@code event: <type>} and
 * {@code data: <json>}, the JSON carrying {@code type} and a {@code sequence_number} counting
 * from 0. {@code response.created} and {@code response.in_progress} carry the response
 * {@code in_progress} with no output; then {@code response.output_item.added} opens the one
 * output item. A text follows with {@code response.content_part.added}, one
 * {@code response.output_text.delta} per word, {@code response.output_text.done} and
 * {@code response.content_part.done}; a function call with two
 * {@code response.function_call_arguments.delta} halves and
 * {@code response.function_call_arguments.done}. {@code response.output_item.done} closes
 * the item, and {@code response.completed} carries the whole response. There is no
 * {@code [DONE]} line.
 */
public final class ResponsesMockStream {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int OUTPUT_INDEX = 0;
    private static final int CONTENT_INDEX = 0;

    private final List<ObjectNode> events = new ArrayList<>();
    private final ResponsesMockReplies.Answered answered;

    private ResponsesMockStream(ResponsesMockReplies.Answered answered) {
        this.answered = answered;
    }

    public static List<Buffer> events(ResponsesMockReplies.Answered answered) {
        ResponsesMockStream stream = new ResponsesMockStream(answered);
        stream.write();
        return stream.events.stream().map(ResponsesMockStream::frame).toList();
    }

    private void write() {
        add("response.created").set("response", ResponsesMockReplies.response(answered, false));
        add("response.in_progress").set("response", ResponsesMockReplies.response(answered, false));
        add("response.output_item.added").put("output_index", OUTPUT_INDEX)
                .set("item", ResponsesMockReplies.outputItem(answered, false));
        if (answered.answer().callsATool()) {
            functionCall(answered.answer().toolCall());
        } else {
            text(answered.answer().text());
        }
        add("response.output_item.done").put("output_index", OUTPUT_INDEX)
                .set("item", ResponsesMockReplies.outputItem(answered, true));
        add("response.completed").set("response", ResponsesMockReplies.response(answered, true));
    }

    private void text(String text) {
        inPart("response.content_part.added").set("part", ResponsesMockReplies.textPart(""));
        for (String word : MockStreamEvents.words(text)) {
            inPart("response.output_text.delta").put("delta", word).putArray("logprobs");
        }
        inPart("response.output_text.done").put("text", text).putArray("logprobs");
        inPart("response.content_part.done").set("part", ResponsesMockReplies.textPart(text));
    }

    private void functionCall(MockAnswer.ToolCall call) {
        for (String half : MockStreamEvents.halves(call.arguments())) {
            inItem("response.function_call_arguments.delta").put("delta", half);
        }
        inItem("response.function_call_arguments.done").put("name", call.name()).put("arguments", call.arguments());
    }

    /** An event about the output item's one content part. */
    private ObjectNode inPart(String type) {
        return inItem(type).put("content_index", CONTENT_INDEX);
    }

    /** An event about the output item. */
    private ObjectNode inItem(String type) {
        return add(type).put("item_id", answered.itemId()).put("output_index", OUTPUT_INDEX);
    }

    /** Appends an event of {@code type} with the next sequence number; returns its JSON for the caller to fill in. */
    private ObjectNode add(String type) {
        ObjectNode data = NODES.objectNode().put("type", type).put("sequence_number", events.size());
        events.add(data);
        return data;
    }

    private static Buffer frame(ObjectNode data) {
        byte[] json = MockJson.bytes(data);
        return Buffer.buffer("event: " + data.path("type").asText() + "\ndata: ")
                .appendBytes(json)
                .appendString("\n\n");
    }
}
