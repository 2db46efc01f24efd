package dev.sluice.mock;

import com.fasterxml.jackson.core.JsonGenerator;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a reply into OpenAI's server-sent events. A stream carries one event per word of
 * the reply (a word keeps its leading space, so the pieces join back into the reply
 * exactly); the first chat delta also carries {@code role: assistant}. A finishing chunk
 * with {@code finish_reason: stop} follows, then a usage chunk with empty {@code choices}
 * when the caller set {@code stream_options.include_usage}, then {@code data: [DONE]}.
 */
final class MockStreamEvents {

    static final Buffer DONE = Buffer.buffer("data: [DONE]\n\n");

    private static final byte[] EVENT_START = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);

    private final MockReplies replies;

    MockStreamEvents(MockReplies replies) {
        this.replies = replies;
    }

    /** Every event of the answer to a chat or completion call, {@code [DONE]} last. */
    List<Buffer> of(MockCall call) {
        Chunk chunk = new Chunk(call, replies.nextId(call.kind()), replies.created());
        String text = replies.replyText(call);
        List<String> words = words(text);
        List<Buffer> events = new ArrayList<>(words.size() + 3);
        for (int i = 0; i < words.size(); i++) {
            events.add(chunk.word(words.get(i), i == 0));
        }
        events.add(chunk.finish());
        if (call.includeUsage()) {
            events.add(chunk.usage(text.length()));
        }
        events.add(DONE);
        return events;
    }

    /** Splits before every space that follows a non-space, so the pieces join back into {@code text}. */
    static List<String> words(String text) {
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

    /** The fields every chunk of one stream shares, and the three kinds of chunk. */
    private record Chunk(MockCall call, String id, long created) {

        boolean chat() {
            return call.kind() == MockRoute.Kind.CHAT;
        }

        Buffer word(String word, boolean first) {
            return event(json -> {
                open(json);
                if (chat()) {
                    json.writeObjectFieldStart("delta");
                    if (first) {
                        json.writeStringField("role", "assistant");
                    }
                    json.writeStringField("content", word);
                    json.writeEndObject();
                } else {
                    json.writeStringField("text", word);
                }
                close(json, null);
            });
        }

        Buffer finish() {
            return event(json -> {
                open(json);
                if (chat()) {
                    json.writeObjectFieldStart("delta");
                    json.writeEndObject();
                } else {
                    json.writeStringField("text", "");
                }
                close(json, "stop");
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
