package dev.sluice.vendors.gemini.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UnsupportedParam;
import dev.sluice.vendors.gemini.wire.GeminiBlocked;
import dev.sluice.vendors.gemini.wire.GeminiChat;
import dev.sluice.vendors.gemini.wire.GeminiRequest;
import dev.sluice.vendors.gemini.wire.ToolCallIds;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.vendors.stream.SseFraming;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.vendors.stream.TranslatedStream;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The chat half of every adapter that calls Gemini models, whoever hosts them (Google AI
 * Studio, Vertex AI): the caller's OpenAI body written as a {@code GenerateContentRequest},
 * the answer and the stream read back as OpenAI's, a blocked prompt failed as a
 * content-policy refusal. Only the URL and the credentials differ between hosts.
 */
public final class GeminiChatCalls {
    private final Clock clock;
    private final ToolCallIds ids;

    public GeminiChatCalls(Clock clock, ToolCallIds ids) {
        this.clock = clock;
        this.ids = ids;
    }

    /**
     * A chat body in Gemini's format, and the caller's parameters left out of it.
     *
     * @param openAiBody the caller's body (or a health probe's), {@code model} set and Sluice's own fields removed
     * @param dropParams whether what Gemini cannot take is dropped rather than refused
     * @throws UnsupportedParam when Gemini cannot take a parameter and {@code dropParams} is off
     * @throws IllegalArgumentException when the conversation has something Gemini has no place for
     */
    public Written write(ObjectNode openAiBody, boolean dropParams) {
        ChatRequest chat = OpenAiChat.decodeRequest(openAiBody);
        GeminiRequest encoded = GeminiChat.encodeRequest(chat);
        if (!dropParams && !encoded.unsupported().isEmpty()) {
            throw new UnsupportedParam(encoded.unsupported().get(0), "Gemini");
        }
        return new Written(Json.bytes(encoded.body()), encoded.unsupported(), chat.stream());
    }

    /**
     * @param body          the {@code GenerateContentRequest}
     * @param droppedParams the caller's parameters left out under {@code drop_params}
     * @param stream        whether the caller asked for a stream
     */
    public record Written(byte[] body, List<String> droppedParams, boolean stream) {}

    /**
     * A {@code GenerateContentResponse} as an OpenAI chat completion; empty when it is not JSON.
     *
     * @throws StreamFailure carrying a content-policy failure when Gemini blocked the prompt
     */
    public Optional<OpenAiShape.ShapedAnswer> answer(String model, Buffer body) {
        Optional<JsonNode> tree = Json.parseOrEmpty(body).filter(JsonNode::isObject);
        if (tree.isEmpty()) {
            return Optional.empty();
        }
        ChatAnswer answer;
        try {
            answer = GeminiChat.decodeAnswer(tree.get(), model, ids);
        } catch (GeminiBlocked blocked) {
            throw new StreamFailure(GoogleErrors.blocked(blocked));
        } catch (IllegalArgumentException unreadable) {
            return Optional.empty();
        }
        return Optional.of(OpenAiShape.answer(OpenAiChat.encodeAnswer(answer, clock.instant().getEpochSecond())));
    }

    /**
     * The answer to {@code request}, as OpenAI's: an embeddings list as the host's
     * {@code embeddings} read it, else a chat completion.
     *
     * @throws StreamFailure carrying a content-policy failure when Gemini blocked the prompt
     */
    public Optional<OpenAiShape.ShapedAnswer> answer(ModelRequest request, Buffer body, Embeddings embeddings) {
        String model = request.body().path("model").asText("gemini");
        return request.operation() == Operation.EMBEDDINGS ? embeddings.answer(model, body, request.body()) : answer(model, body);
    }

    /**
     * A health probe's answer, read by its shape since the probe does not say what it asked: an
     * embeddings list when {@code isEmbeddings} takes it for one, else a chat completion; empty
     * when it is not JSON.
     */
    public Optional<OpenAiShape.ShapedAnswer> probeAnswer(Buffer body, Predicate<JsonNode> isEmbeddings,
            Embeddings embeddings) {
        return Json.parseOrEmpty(body).flatMap(tree -> isEmbeddings.test(tree)
                ? embeddings.answer("gemini", body, Json.MAPPER.createObjectNode()) : answer("gemini", body));
    }

    /** How one host's embeddings answer reads as OpenAI's; empty when it is not one. */
    @FunctionalInterface
    public interface Embeddings {
        Optional<OpenAiShape.ShapedAnswer> answer(String model, Buffer body, JsonNode request);
    }

    /** What turns one {@code alt=sse} stream from {@code deployment} into OpenAI's chunks. */
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        String model = deployment.params().providerModel();
        boolean includeUsage = request.body().path("stream_options").path("include_usage").asBoolean(false);
        return new TranslatedStream(new SseFraming(), new GeminiEventDecoder(GeminiChat.chunkDecoder(model, ids), clock),
                includeUsage, clock.instant().getEpochSecond());
    }

    /** Whether a 2xx body is a {@code GenerateContentResponse}, for callers that were not told what was asked. */
    public static boolean isChatAnswer(JsonNode tree) {
        return tree.has("candidates") || tree.has("promptFeedback");
    }
}
