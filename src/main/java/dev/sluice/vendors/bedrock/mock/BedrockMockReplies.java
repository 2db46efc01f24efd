package dev.sluice.vendors.bedrock.mock;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.vendors.mock.MockJson;
import dev.sluice.vendors.mock.MockReplies;
import dev.sluice.vendors.mock.MockTokens;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * The mock's Bedrock answers: a Converse answer, the same answer as ConverseStream's
 * {@code application/vnd.amazon.eventstream} frames (written by AWS's own encoder, so the
 * prelude and message CRCs are right), and InvokeModel embeddings in Titan's or Cohere's shape.
 * The reply echoes the prompt as {@link MockReplies} does; a call that forces a tool gets that
 * tool called with {@code {"said": <the echoed text>}}; a blocked call (mode {@code policy}) gets
 * a guardrail's message and {@code stopReason: guardrail_intervened}. Usage counts a quarter of
 * the prompt's characters, and when the body holds a {@code cachePoint} half the prompt is read
 * from the cache ({@code cacheReadInputTokens}).
 */
public final class BedrockMockReplies {
    public static final String BLOCKED_TEXT = "Sorry, the model cannot answer this question.";

    private final String replyPrefix;

    BedrockMockReplies(String name) {
        this.replyPrefix = "[" + name + "] you said: ";
    }

    String replyText(BedrockMockCall call) {
        String said = call.lastUserText();
        if (said.codePointCount(0, said.length()) > MockReplies.ECHO_CHARS) {
            said = said.substring(0, said.offsetByCodePoints(0, MockReplies.ECHO_CHARS));
        }
        return replyPrefix + said;
    }

    Buffer converse(BedrockMockCall call, boolean blocked) {
        String text = blocked ? BLOCKED_TEXT : replyText(call);
        return MockJson.buffer(json -> {
            json.writeStartObject();
            json.writeObjectFieldStart("output");
            json.writeObjectFieldStart("message");
            json.writeStringField("role", "assistant");
            json.writeArrayFieldStart("content");
            json.writeStartObject();
            if (call.forcedTool() != null && !blocked) {
                json.writeObjectFieldStart("toolUse");
                json.writeStringField("toolUseId", "tooluse_mock_1");
                json.writeStringField("name", call.forcedTool());
                json.writeObjectFieldStart("input");
                json.writeStringField("said", call.lastUserText());
                json.writeEndObject();
                json.writeEndObject();
            } else {
                json.writeStringField("text", text);
            }
            json.writeEndObject();
            json.writeEndArray();
            json.writeEndObject();
            json.writeEndObject();
            json.writeStringField("stopReason", stopReason(call, blocked));
            usage(json, call, text);
            json.writeObjectFieldStart("metrics");
            json.writeNumberField("latencyMs", 1);
            json.writeEndObject();
            json.writeEndObject();
        });
    }

    /** The answer as ConverseStream frames, one buffer each. */
    List<Buffer> converseStream(BedrockMockCall call, boolean blocked) {
        String text = blocked ? BLOCKED_TEXT : replyText(call);
        List<Buffer> frames = new ArrayList<>();
        frames.add(event("messageStart", json -> json.writeStringField("role", "assistant")));
        if (call.forcedTool() != null && !blocked) {
            frames.add(event("contentBlockStart", json -> {
                json.writeNumberField("contentBlockIndex", 0);
                json.writeObjectFieldStart("start");
                json.writeObjectFieldStart("toolUse");
                json.writeStringField("toolUseId", "tooluse_mock_1");
                json.writeStringField("name", call.forcedTool());
                json.writeEndObject();
                json.writeEndObject();
            }));
            String input = new String(MockJson.bytes(json -> {
                json.writeStartObject();
                json.writeStringField("said", call.lastUserText());
                json.writeEndObject();
            }), java.nio.charset.StandardCharsets.UTF_8);
            frames.add(delta(json -> {
                json.writeObjectFieldStart("toolUse");
                json.writeStringField("input", input);
                json.writeEndObject();
            }));
        } else {
            for (String piece : pieces(text)) {
                frames.add(delta(json -> json.writeStringField("text", piece)));
            }
        }
        frames.add(event("contentBlockStop", json -> json.writeNumberField("contentBlockIndex", 0)));
        frames.add(event("messageStop", json -> json.writeStringField("stopReason", stopReason(call, blocked))));
        frames.add(event("metadata", json -> {
            usage(json, call, text);
            json.writeObjectFieldStart("metrics");
            json.writeNumberField("latencyMs", 1);
            json.writeEndObject();
        }));
        return frames;
    }

    Buffer embeddings(BedrockMockCall call) {
        return MockJson.buffer(json -> {
            json.writeStartObject();
            if (call.cohere()) {
                json.writeStringField("id", "mock-embeddings");
                json.writeArrayFieldStart("embeddings");
                for (String text : call.texts()) {
                    vector(json, text);
                }
                json.writeEndArray();
                json.writeArrayFieldStart("texts");
                for (String text : call.texts()) {
                    json.writeString(text);
                }
                json.writeEndArray();
                json.writeStringField("response_type", "embeddings_floats");
            } else {
                json.writeFieldName("embedding");
                vector(json, call.lastUserText());
                json.writeNumberField("inputTextTokenCount", MockTokens.estimate(call.promptChars()));
            }
            json.writeEndObject();
        });
    }

    /** One event frame: the headers AWS sends with every ConverseStream event, and the JSON payload. */
    static Buffer frame(String eventType, MockJson.Document payload) {
        Map<String, HeaderValue> headers = new java.util.LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromString(eventType));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("event"));
        java.nio.ByteBuffer encoded = new Message(headers, MockJson.bytes(payload)).toByteBuffer();
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return Buffer.buffer(bytes);
    }

    private static Buffer event(String type, MockJson.Document fields) {
        return frame(type, json -> {
            json.writeStartObject();
            fields.writeTo(json);
            json.writeEndObject();
        });
    }

    private static Buffer delta(MockJson.Document delta) {
        return event("contentBlockDelta", json -> {
            json.writeNumberField("contentBlockIndex", 0);
            json.writeObjectFieldStart("delta");
            delta.writeTo(json);
            json.writeEndObject();
        });
    }

    private static String stopReason(BedrockMockCall call, boolean blocked) {
        if (blocked) {
            return "guardrail_intervened";
        }
        return call.forcedTool() != null ? "tool_use" : "end_turn";
    }

    private static void usage(JsonGenerator json, BedrockMockCall call, String text) throws IOException {
        int input = MockTokens.estimate(call.promptChars());
        int output = MockTokens.estimate(text.length());
        // Asked to cache, half the prompt is read from the cache; Converse counts those apart from inputTokens.
        int cacheRead = call.cached() ? input / 2 : 0;
        json.writeObjectFieldStart("usage");
        json.writeNumberField("inputTokens", input - cacheRead);
        json.writeNumberField("outputTokens", output);
        json.writeNumberField("totalTokens", input + output);
        if (cacheRead > 0) {
            json.writeNumberField("cacheReadInputTokens", cacheRead);
            json.writeNumberField("cacheWriteInputTokens", 0);
        }
        json.writeEndObject();
    }

    private static void vector(JsonGenerator json, String text) throws IOException {
        json.writeStartArray();
        for (float value : MockReplies.embedding(text)) {
            json.writeNumber(value);
        }
        json.writeEndArray();
    }

    /** The text in three pieces or fewer, cut at spaces, so a stream has several deltas. */
    private static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        int size = Math.max(1, (text.length() + 2) / 3);
        for (int start = 0; start < text.length(); start += size) {
            pieces.add(text.substring(start, Math.min(text.length(), start + size)));
        }
        return pieces;
    }
}
