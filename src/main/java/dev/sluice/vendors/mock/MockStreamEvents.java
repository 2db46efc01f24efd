package dev.sluice.vendors.mock;

import com.fasterxml.jackson.core.JsonGenerator;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts an answer into OpenAI's server-sent events. A text is sent one event per word (a
 * word keeps its leading space, so the pieces join back into the reply exactly); the first
 * chat delta also carries {@code role: assistant}. A tool call is sent as OpenAI sends one:
 * a delta with {@code role: assistant}, then a delta with {@code tool_calls[0]} carrying
 * {@code index}, {@code id}, {@code type}, {@code function.name} and empty
 * {@code function.arguments}, then two deltas each carrying half of the arguments. A
 * finishing chunk with the answer's {@code finish_reason} follows, then a usage chunk with
 * empty {@code choices} when the caller set {@code stream_options.include_usage}, then
 * {@code data: [DONE]}.
 */
public final class MockStreamEvents {

    static final Buffer DONE = Buffer.buffer("data: [DONE]\n\n");

    private static final byte[] EVENT_START = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);

    private final MockReplies replies;

    MockStreamEvents(MockReplies replies) {
        this.replies = replies;
    }

    /** Every event of the answer to a chat or completion call, {@code [DONE]} last. */
    List<Buffer> of(MockCall call) {
        MockAnswer answer = replies.answerTo(call);
        Chunk chunk = new Chunk(call, answer.id(), replies.created());
        List<Buffer> events = new ArrayList<>();
        if (answer.callsATool()) {
            events.add(chunk.role());
            events.add(chunk.toolCallStart(answer.toolCall()));
            for (String piece : halves(answer.toolCall().arguments())) {
                events.add(chunk.toolArguments(piece));
            }
        } else {
            List<String> words = words(answer.text());
            for (int i = 0; i < words.size(); i++) {
                events.add(chunk.word(words.get(i), i == 0));
            }
        }
        events.add(chunk.finish(answer.finishReason()));
        if (call.includeUsage()) {
            events.add(chunk.usage(answer.completionChars()));
        }
        events.add(DONE);
        return events;
    }

    /** {@code text} in two pieces split between code points, so neither piece holds half a surrogate pair. */
    public static List<String> halves(String text) {
        int half = text.offsetByCodePoints(0, text.codePointCount(0, text.length()) / 2);
        return List.of(text.substring(0, half), text.substring(half));
    }

    /** Splits before every space that follows a non-space, so the pieces join back into {@code text}. */
    public static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        int start = 0;
        for (int i = 1; i < text.length(); i++) {
            if (text.charAt(i) == ' ' && text.charAt(i - 1) != ' ') {
                words.add(text.substring(start, i));
                start = i;
            }
        }
        words.add(text.substring(start));
        return words;
    }

    /** The fields every chunk of one stream shares, and the kinds of chunk. */
    private record Chunk(MockCall call, String id, long created) {

        boolean chat() {
            return call.kind() == MockRoute.Kind.CHAT;
        }

        Buffer word(String word, boolean first) {
            if (chat()) {
                return delta(json -> {
                    if (first) {
                        json.writeStringField("role", "assistant");
                    }
                    json.writeStringField("content", word);
                });
            }
            return event(json -> {
                open(json);
                json.writeStringField("text", word);
                close(json, null);
            });
        }

        /** The chat delta that opens a tool call's stream: the role alone, no content yet. */
        Buffer role() {
            return delta(json -> {
                json.writeStringField("role", "assistant");
                json.writeNullField("content");
            });
        }

        Buffer toolCallStart(MockAnswer.ToolCall toolCall) {
            return toolCallDelta(json -> {
                json.writeStringField("id", toolCall.id());
                json.writeStringField("type", "function");
                json.writeObjectFieldStart("function");
                json.writeStringField("name", toolCall.name());
                json.writeStringField("arguments", "");
                json.writeEndObject();
            });
        }

        Buffer toolArguments(String piece) {
            return toolCallDelta(json -> {
                json.writeObjectFieldStart("function");
                json.writeStringField("arguments", piece);
                json.writeEndObject();
            });
        }

        Buffer finish(String finishReason) {
            return event(json -> {
                open(json);
                if (chat()) {
                    json.writeObjectFieldStart("delta");
                    json.writeEndObject();
                } else {
                    json.writeStringField("text", "");
                }
                close(json, finishReason);
            });
        }

        /** A chat chunk whose delta holds {@code tool_calls[0]}: its index, then {@code fields}. */
        private Buffer toolCallDelta(MockJson.Document fields) {
            return delta(json -> {
                json.writeArrayFieldStart("tool_calls");
                json.writeStartObject();
                json.writeNumberField("index", 0);
                fields.writeTo(json);
                json.writeEndObject();
                json.writeEndArray();
            });
        }

        /** A chat chunk, not finishing, whose delta holds {@code fields}. */
        private Buffer delta(MockJson.Document fields) {
            return event(json -> {
                open(json);
                json.writeObjectFieldStart("delta");
                fields.writeTo(json);
                json.writeEndObject();
                close(json, null);
            });
        }

        Buffer usage(int completionChars) {
            return event(json -> {
                header(json);
                json.writeArrayFieldStart("choices");
                json.writeEndArray();
                MockReplies.usage(json, call.promptChars(), completionChars);
                json.writeEndObject();
            });
        }

        private void header(JsonGenerator json) throws IOException {
            json.writeStartObject();
            json.writeStringField("id", id);
            json.writeStringField("object", chat() ? "chat.completion.chunk" : "text_completion");
            json.writeNumberField("created", created);
            json.writeStringField("model", call.model());
        }

        /** Opens the chunk up to inside its single choice. */
        private void open(JsonGenerator json) throws IOException {
            header(json);
            json.writeArrayFieldStart("choices");
            json.writeStartObject();
            json.writeNumberField("index", 0);
        }

        private static void close(JsonGenerator json, String finishReason) throws IOException {
            json.writeNullField("logprobs");
            json.writeStringField("finish_reason", finishReason);
            json.writeEndObject();
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    private static Buffer event(MockJson.Document chunk) {
        byte[] json = MockJson.bytes(chunk);
        return Buffer.buffer(EVENT_START.length + json.length + EVENT_END.length)
                .appendBytes(EVENT_START)
                .appendBytes(json)
                .appendBytes(EVENT_END);
    }
}
