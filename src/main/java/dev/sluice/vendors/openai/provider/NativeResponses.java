package dev.sluice.vendors.openai.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.ForwardedBody;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.openai.responses.ResponsesApi;
import dev.sluice.vendors.openai.responses.ResponsesStreamDecoder;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.vendors.stream.EventDecoder;
import dev.sluice.vendors.stream.Frame;
import dev.sluice.vendors.stream.SseFraming;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.vendors.stream.TranslatedStream;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A caller of the Responses API sent to a deployment's own Responses API (OpenAI's, Azure
 * OpenAI's): the caller's body goes as it was sent, and the answer and its events come back
 * as they were written. The gateway reads them as chat completions for usage, cost and
 * guardrails. A deployment with {@code use_responses_api: false} is called with chat
 * completions instead, as every other vendor is.
 */
public final class NativeResponses {
    private final Clock clock;

    public NativeResponses(Clock clock) {
        this.clock = clock;
    }

    /** Whether {@code request} goes to {@code deployment}'s Responses API untranslated. */
    public static boolean passesThrough(Deployment deployment, ModelRequest request) {
        return request.writtenIn(Dialect.OPENAI_RESPONSES) && deployment.params().vendor().useResponsesApi().orElse(true);
    }

    /** The caller's own body for the deployment's model. */
    public static ObjectNode body(Deployment deployment, ModelRequest request) {
        return ForwardedBody.of(request.callerBody(), deployment.params().providerModel());
    }

    /** A Responses stream read as chat-completion chunks, its usage always kept. */
    public StreamTranslator streamTranslator() {
        return new TranslatedStream(new SseFraming(), new ResponsesEvents(), true, clock.instant().getEpochSecond());
    }

    /**
     * A 2xx body answering {@code request}: a {@code response} object (the call went to the
     * Responses API) read as a chat completion, else {@code chat}'s reading of it.
     */
    public Optional<OpenAiShape.ShapedAnswer> answer(ModelRequest request, Buffer body,
            java.util.function.Function<Buffer, Optional<OpenAiShape.ShapedAnswer>> chat) {
        if (request.writtenIn(Dialect.OPENAI_RESPONSES)) {
            Optional<OpenAiShape.ShapedAnswer> response = answer(body);
            if (response.isPresent()) {
                return response;
            }
        }
        return chat.apply(body);
    }

    /** A {@code response} object read as a chat completion; empty when it is not one. */
    public Optional<OpenAiShape.ShapedAnswer> answer(Buffer body) {
        ChatAnswer answer;
        try {
            JsonNode tree = Json.parse(body.getBytes());
            if (!"response".equals(tree.path("object").asText())) {
                return Optional.empty();
            }
            answer = ResponsesApi.decodeResponse(tree);
        } catch (IOException | IllegalArgumentException | IllegalStateException unusable) {
            return Optional.empty();
        }
        ObjectNode openAi = OpenAiChat.encodeAnswer(answer, clock.instant().getEpochSecond());
        return Optional.of(new OpenAiShape.ShapedAnswer(Json.buffer(openAi), openAi, answer.usage().totalTokens(),
                answer.usage().completionTokens()));
    }

    /** A Responses event; {@code response.failed} and {@code error} fail the stream as a server failure. */
    private static final class ResponsesEvents implements EventDecoder {
        private final ResponsesStreamDecoder decoder = ResponsesApi.streamDecoder();

        @Override
        public List<StreamEvent> decode(Frame frame) {
            try {
                return decoder.decode(frame.type(), Json.parse(frame.payload()));
            } catch (IOException | IllegalArgumentException | IllegalStateException failed) {
                throw new StreamFailure(new Failure(FailureClass.SERVER, 0, Buffer.buffer(frame.payload()), Optional.empty(),
                        "the Responses stream failed: " + failed.getMessage()));
            }
        }
    }
}
