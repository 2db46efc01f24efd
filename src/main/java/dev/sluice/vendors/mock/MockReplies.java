package dev.sluice.vendors.mock;

import com.fasterxml.jackson.core.JsonGenerator;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds the mock's successful answers in OpenAI's shapes: chat completions, text
 * completions and embeddings. A reply text is
 * {@code [name] you said: <first 40 characters of the last user text>}, or
 * {@code [name] the tool said: <first 40 characters of the tool results>} when the chat ends
 * with {@code tool} messages. A chat given function tools (and no {@code tool_choice: "none"})
 * that does not end with tool results is answered instead with one call of the tool
 * {@code tool_choice} names, else the first, id {@code call_mock_<n>}, arguments
 * {@code {"text":"<first 40 characters of the last user text>"}}, as the Anthropic mock does.
 * Tokens are estimated by {@link MockTokens}. {@link MockStreamEvents} cuts the same answer
 * into chunks.
 */
public final class MockReplies {

    public static final int ECHO_CHARS = 40;

    private static final int EMBEDDING_DIMENSIONS = 8;

    private final String name;
    private final String replyPrefix;
    private final String toolReplyPrefix;
    private final Clock clock;
    private final AtomicLong ids = new AtomicLong();
    private final Buffer models;

    public MockReplies(String name, Clock clock) {
        this.name = name;
        this.replyPrefix = "[" + name + "] you said: ";
        this.toolReplyPrefix = "[" + name + "] the tool said: ";
        this.clock = clock;
        this.models = MockJson.buffer(json -> {
            json.writeStartObject();
            json.writeStringField("object", "list");
            json.writeArrayFieldStart("data");
            json.writeStartObject();
            json.writeStringField("id", MockCall.UNNAMED_MODEL);
            json.writeStringField("object", "model");
            json.writeNumberField("created", 0);
            json.writeStringField("owned_by", name);
            json.writeEndObject();
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    /** The text the mock answers to this call when it calls no tool. */
    public String replyText(MockCall call) {
        return call.toolResultText() != null
                ? toolReplyPrefix + echo(call.toolResultText())
                : replyPrefix + echo(call.lastUserText());
    }

    /** The first {@link #ECHO_CHARS} characters of {@code said}, never splitting a surrogate pair. */
    static String echo(String said) {
        return said.codePointCount(0, said.length()) > ECHO_CHARS
                ? said.substring(0, said.offsetByCodePoints(0, ECHO_CHARS)) : said;
    }

    /** What the mock answers to a chat or text completion, under a fresh id such as {@code chatcmpl-mock-7}. */
    MockAnswer answerTo(MockCall call) {
        long n = ids.incrementAndGet();
        String id = (call.kind() == MockRoute.Kind.CHAT ? "chatcmpl-mock-" : "cmpl-mock-") + n;
        if (call.toolToCall() == null) {
            return MockAnswer.text(id, replyText(call));
        }
        return MockAnswer.toolCall(id, new MockAnswer.ToolCall("call_mock_" + n, call.toolToCall(),
                toolArguments(call.lastUserText())));
    }

    /** The arguments of every mock tool call: {@code {"text":"<first 40 characters of what the user said>"}}. */
    public static String toolArguments(String lastUserText) {
        return new String(MockJson.bytes(json -> {
            json.writeStartObject();
            json.writeStringField("text", echo(lastUserText));
            json.writeEndObject();
        }), StandardCharsets.UTF_8);
    }

    /** The whole (non-streamed) answer to a model call. */
    Buffer answer(MockCall call) {
        return switch (call.kind()) {
            case CHAT, COMPLETION -> completion(call, answerTo(call));
            case EMBEDDING -> embeddings(call);
            default -> throw new IllegalArgumentException("not a model call: " + call.kind());
        };
    }

    /** The answer to {@code GET /v1/models}: one model, owned by the mock's name. */
    Buffer models() {
        return models;
    }

    /** The answer to {@code GET /}: who this mock is and how it currently behaves. */
    public Buffer identity(MockMode mode) {
        return MockJson.buffer(json -> {
            json.writeStartObject();
            json.writeStringField("name", name);
            json.writeStringField("mode", mode.cliName());
            json.writeEndObject();
        });
    }

    /** A chat or text completion: one choice holding the reply text or the tool call, then the usage. */
    private Buffer completion(MockCall call, MockAnswer answer) {
        boolean chat = call.kind() == MockRoute.Kind.CHAT;
        return MockJson.buffer(json -> {
            json.writeStartObject();
            json.writeStringField("id", answer.id());
            json.writeStringField("object", chat ? "chat.completion" : "text_completion");
            json.writeNumberField("created", created());
            json.writeStringField("model", call.model());
            json.writeArrayFieldStart("choices");
            json.writeStartObject();
            if (chat) {
                json.writeNumberField("index", 0);
                json.writeObjectFieldStart("message");
                json.writeStringField("role", "assistant");
                if (answer.callsATool()) {
                    json.writeNullField("content");
                    json.writeArrayFieldStart("tool_calls");
                    toolCall(json, answer.toolCall());
                    json.writeEndArray();
                } else {
                    json.writeStringField("content", answer.text());
                }
                json.writeEndObject();
            } else {
                json.writeStringField("text", answer.text());
                json.writeNumberField("index", 0);
            }
            json.writeNullField("logprobs");
            json.writeStringField("finish_reason", answer.finishReason());
            json.writeEndObject();
            json.writeEndArray();
            usage(json, call.promptChars(), answer.completionChars());
            json.writeEndObject();
        });
    }

    /** {@code {"id":..,"type":"function","function":{"name":..,"arguments":..}}}, as a message's tool call. */
    private static void toolCall(JsonGenerator json, MockAnswer.ToolCall call) throws IOException {
        json.writeStartObject();
        json.writeStringField("id", call.id());
        json.writeStringField("type", "function");
        json.writeObjectFieldStart("function");
        json.writeStringField("name", call.name());
        json.writeStringField("arguments", call.arguments());
        json.writeEndObject();
        json.writeEndObject();
    }

    private Buffer embeddings(MockCall call) {
        List<String> inputs = call.texts();
        return MockJson.buffer(json -> {
            json.writeStartObject();
            json.writeStringField("object", "list");
            json.writeArrayFieldStart("data");
            for (int i = 0; i < inputs.size(); i++) {
                json.writeStartObject();
                json.writeStringField("object", "embedding");
                json.writeNumberField("index", i);
                json.writeArrayFieldStart("embedding");
                for (float value : embedding(inputs.get(i))) {
                    json.writeNumber(value);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeStringField("model", call.model());
            int tokens = MockTokens.estimate(call.promptChars());
            json.writeObjectFieldStart("usage");
            json.writeNumberField("prompt_tokens", tokens);
            json.writeNumberField("total_tokens", tokens);
            json.writeEndObject();
            json.writeEndObject();
        });
    }

    /** A fixed-length vector in [-1, 1) that depends only on the text. */
    public static float[] embedding(String text) {
        float[] vector = new float[EMBEDDING_DIMENSIONS];
        long state = text.hashCode();
        for (int i = 0; i < vector.length; i++) {
            state += 0x9E3779B97F4A7C15L;
            long mixed = mix(state);
            vector[i] = (mixed >>> 40) / (float) (1 << 23) - 1f;
        }
        return vector;
    }

    /** SplitMix64's finaliser: spreads a counter's bits evenly. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Seconds since the epoch, for the {@code created} field. */
    long created() {
        return clock.instant().getEpochSecond();
    }

    static void usage(JsonGenerator json, int promptChars, int completionChars) throws IOException {
        int prompt = MockTokens.estimate(promptChars);
        int completion = MockTokens.estimate(completionChars);
        json.writeObjectFieldStart("usage");
        json.writeNumberField("prompt_tokens", prompt);
        json.writeNumberField("completion_tokens", completion);
        json.writeNumberField("total_tokens", prompt + completion);
        json.writeEndObject();
    }
}
