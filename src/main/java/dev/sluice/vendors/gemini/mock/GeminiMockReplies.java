package dev.sluice.vendors.gemini.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockReplies;
import dev.sluice.vendors.mock.MockTokens;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Gemini mock's answers: {@code GenerateContentResponse}s (whole, or as the
 * {@code alt=sse} events of a stream), a function call when tools were declared and the
 * conversation ends with a user turn, embeddings, and a prompt blocked for safety.
 */
final class GeminiMockReplies {
    /** A stream's text is cut into this many chunks at most. */
    static final int STREAM_CHUNKS = 3;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String replyPrefix;
    private final AtomicLong ids = new AtomicLong();

    GeminiMockReplies(String name) {
        this.replyPrefix = "[" + name + "] you said: ";
    }

    ObjectNode answer(GeminiMockCall call) {
        ObjectNode answer = NODES.objectNode();
        ObjectNode candidate = answer.putArray("candidates").addObject();
        ArrayNode parts = candidate.putObject("content").put("role", "model").putArray("parts");
        String written = call.callFunction() == null ? reply(call) : "";
        if (call.callFunction() == null) {
            parts.addObject().put("text", written);
        } else {
            ObjectNode functionCall = parts.addObject().putObject("functionCall")
                    .put("name", call.callFunction().path("name").asText());
            functionCall.set("args", arguments(call.callFunction().path("parameters")));
        }
        candidate.put("finishReason", "STOP").put("index", 0);
        usage(answer, call, MockTokens.estimate(Math.max(written.length(), 4)));
        return answer.put("modelVersion", call.route().model()).put("responseId", "mock-" + ids.incrementAndGet());
    }

    /** The events of a stream: the text in up to {@link #STREAM_CHUNKS} pieces, the last with finishReason and usage. */
    List<Buffer> stream(GeminiMockCall call) {
        String id = "mock-" + ids.incrementAndGet();
        List<ObjectNode> chunks = new ArrayList<>();
        if (call.callFunction() != null) {
            ObjectNode whole = answer(call).put("responseId", id);
            chunks.add(whole);
        } else {
            String text = reply(call);
            int size = Math.max(1, (text.length() + STREAM_CHUNKS - 1) / STREAM_CHUNKS);
            for (int start = 0; start < text.length(); start += size) {
                ObjectNode chunk = NODES.objectNode();
                ObjectNode candidate = chunk.putArray("candidates").addObject();
                candidate.putObject("content").put("role", "model").putArray("parts").addObject()
                        .put("text", text.substring(start, Math.min(text.length(), start + size)));
                candidate.put("index", 0);
                if (start + size >= text.length()) {
                    candidate.put("finishReason", "STOP");
                }
                usage(chunk, call, MockTokens.estimate(Math.min(text.length(), start + size)));
                chunks.add(chunk.put("modelVersion", call.route().model()).put("responseId", id));
            }
        }
        return chunks.stream().map(GeminiMockReplies::event).toList();
    }

    ObjectNode blocked(GeminiMockCall call) {
        ObjectNode answer = NODES.objectNode();
        ObjectNode feedback = answer.putObject("promptFeedback").put("blockReason", "SAFETY");
        ArrayNode ratings = feedback.putArray("safetyRatings");
        ratings.addObject().put("category", "HARM_CATEGORY_DANGEROUS_CONTENT").put("probability", "HIGH").put("blocked", true);
        ratings.addObject().put("category", "HARM_CATEGORY_HARASSMENT").put("probability", "NEGLIGIBLE");
        answer.putObject("usageMetadata").put("promptTokenCount", MockTokens.estimate(call.promptChars()))
                .put("totalTokenCount", MockTokens.estimate(call.promptChars()));
        return answer.put("modelVersion", call.route().model()).put("responseId", "mock-" + ids.incrementAndGet());
    }

    ObjectNode embeddings(GeminiMockCall call) {
        ObjectNode answer = NODES.objectNode();
        switch (call.route().kind()) {
            case EMBED -> answer.set("embedding", values(call.texts().isEmpty() ? "" : call.texts().getFirst()));
            case BATCH_EMBED -> call.texts().forEach(text -> answer.withArray("embeddings").add(values(text)));
            default -> call.texts().forEach(text -> {
                ObjectNode embeddings = answer.withArray("predictions").addObject().putObject("embeddings");
                embeddings.setAll(values(text));
                embeddings.putObject("statistics").put("token_count", MockTokens.estimate(text.length())).put("truncated", false);
            });
        }
        return answer;
    }

    static Buffer event(ObjectNode chunk) {
        return Buffer.buffer("data: ").appendBuffer(GeminiMockErrors.buffer(chunk)).appendString("\r\n\r\n", "UTF-8");
    }

    private String reply(GeminiMockCall call) {
        String said = call.lastUserText();
        return replyPrefix + (said.length() > 200 ? said.substring(0, 200) : said);
    }

    private static ObjectNode values(String text) {
        ObjectNode embedding = NODES.objectNode();
        ArrayNode values = embedding.putArray("values");
        for (float v : MockReplies.embedding(text)) {
            values.add(v);
        }
        return embedding;
    }

    /** Arguments that satisfy the declaration's required properties: "mock", 1 or true by type. */
    private static ObjectNode arguments(JsonNode parameters) {
        ObjectNode args = NODES.objectNode();
        for (JsonNode required : parameters.path("required")) {
            String type = parameters.path("properties").path(required.asText()).path("type").asText("string");
            switch (type.toLowerCase(Locale.ROOT)) {
                case "integer", "number" -> args.put(required.asText(), 1);
                case "boolean" -> args.put(required.asText(), true);
                default -> args.put(required.asText(), "mock");
            }
        }
        return args;
    }

    private static void usage(ObjectNode answer, GeminiMockCall call, int completion) {
        int prompt = MockTokens.estimate(call.promptChars());
        answer.putObject("usageMetadata").put("promptTokenCount", prompt).put("candidatesTokenCount", completion)
                .put("totalTokenCount", prompt + completion);
    }
}
