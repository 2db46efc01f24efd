package dev.sluice.vendors.bedrock.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.anthropic.provider.AnthropicCalls;
import dev.sluice.vendors.anthropic.wire.AnthropicMessages;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.vendors.stream.TranslatedStream;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Anthropic's Claude on Bedrock for a caller of the Messages API, called natively through
 * InvokeModel: {@code POST /model/ID/invoke}, or {@code /invoke-with-response-stream} for a
 * stream. The body is the caller's own Messages body less {@code model} (the path names it),
 * {@code stream} (the action says it) and the gateway's own fields, with
 * {@code anthropic_version: bedrock-2023-05-31} unless the caller gave one; the
 * {@code anthropic-beta} features the caller's header and the deployment's {@code extra_headers}
 * ask for go into the body's {@code anthropic_beta} array, where Bedrock reads them. The answer
 * is Anthropic's message JSON, relayed as written; a stream is Bedrock's event stream of
 * {@code chunk} frames, each carrying one Anthropic stream event in base64, which the gateway
 * reads ({@link InvokeStreamDecoder}) and writes anew for the caller.
 *
 * <p>A model is Claude when its id names an Anthropic Claude model, that is contains
 * {@code anthropic.claude}: a foundation model id ({@code anthropic.claude-sonnet-4-5-20250929-v1:0}),
 * a cross-region inference profile ({@code us.anthropic.claude-...}, {@code global.anthropic.claude-...})
 * or an ARN naming either. An application inference profile's ARN names no model, so it goes
 * through Converse, as every OpenAI chat caller and every other model does.
 */
final class BedrockClaude {
    /** The Messages API version Bedrock takes in the body, in place of Anthropic's header. */
    static final String ANTHROPIC_VERSION = "bedrock-2023-05-31";
    private static final String BETA_HEADER = "anthropic-beta";
    private static final String BETA_FIELD = "anthropic_beta";
    private static final String EVENT_STREAM = "application/vnd.amazon.eventstream";

    private final AnthropicCalls calls;
    private final Clock clock;

    BedrockClaude(AnthropicCalls calls, Clock clock) {
        this.calls = calls;
        this.clock = clock;
    }

    /** Whether {@code modelId} (a model id, inference profile or ARN) names an Anthropic Claude model. */
    static boolean names(String modelId) {
        return modelId.toLowerCase(Locale.ROOT).contains("anthropic.claude");
    }

    /** Whether {@code request} goes to the deployment natively: a Messages API chat with a Claude model. */
    boolean serves(Deployment deployment, ModelRequest request) {
        return request.writtenIn(Dialect.ANTHROPIC) && request.operation() == Operation.CHAT_COMPLETIONS
                && names(BedrockEndpoint.modelId(deployment));
    }

    /** The InvokeModel call's action: {@code invoke}, or {@code invoke-with-response-stream} for a stream. */
    static String action(ModelRequest request) {
        return request.stream() ? "invoke-with-response-stream" : "invoke";
    }

    /**
     * The call at {@code url}, the deployment's InvokeModel URL for {@link #action}.
     *
     * @throws IllegalArgumentException when the caller's {@code anthropic_beta} is not an array of strings
     */
    UpstreamRequest request(Deployment deployment, ModelRequest request, String url) {
        ObjectNode body = calls.passThrough(deployment, request).body();
        body.remove(List.of("model", "stream"));
        if (!body.hasNonNull("anthropic_version")) {
            body.put("anthropic_version", ANTHROPIC_VERSION);
        }
        Map<String, String> headers = new LinkedHashMap<>(AnthropicCalls.headers(deployment, request.vendorHeaders()));
        String betas = headers.remove(BETA_HEADER);
        if (betas != null) {
            body.set(BETA_FIELD, betas(body.get(BETA_FIELD), betas));
        }
        headers.put("Accept", request.stream() ? EVENT_STREAM : "application/json");
        return new UpstreamRequest(url, headers, Json.bytes(body));
    }

    /** The body's own {@code anthropic_beta} features, then those of the header not among them. */
    private static ArrayNode betas(JsonNode own, String header) {
        Set<String> betas = new LinkedHashSet<>();
        if (own != null && !own.isNull()) {
            if (!own.isArray()) {
                throw new IllegalArgumentException(BETA_FIELD + ": " + own + " (expected: an array of beta feature names)");
            }
            for (JsonNode beta : own) {
                if (!beta.isTextual()) {
                    throw new IllegalArgumentException(BETA_FIELD + ": " + beta + " (expected: a beta feature name, a string)");
                }
                betas.add(beta.textValue());
            }
        }
        for (String beta : header.split(",")) {
            if (!beta.isBlank()) {
                betas.add(beta.strip());
            }
        }
        ArrayNode array = Json.MAPPER.createArrayNode();
        betas.forEach(array::add);
        return array;
    }

    /** The stream of a native call, as OpenAI chunks for the gateway to read and write anew. */
    StreamTranslator streamTranslator(ModelRequest request) {
        boolean includeUsage = request.body().path("stream_options").path("include_usage").asBoolean(false);
        InvokeStreamDecoder decoder = new InvokeStreamDecoder(
                AnthropicMessages.streamDecoder(AnthropicMessages.asksJson(request.body())), clock);
        return new TranslatedStream(new EventStreamFraming(), decoder, includeUsage, clock.instant().getEpochSecond());
    }

    /** Whether a 2xx body is InvokeModel's Anthropic message, not Converse's answer. */
    static boolean isMessage(Buffer body) {
        try {
            JsonNode tree = Json.parse(body.getBytes());
            return tree != null && AnthropicCalls.isAnswer(tree);
        } catch (IOException notJson) {
            return false;
        }
    }

    /** InvokeModel's Anthropic message as OpenAI's chat completion; empty when it is not one. */
    Optional<OpenAiShape.ShapedAnswer> answer(ModelRequest request, Buffer body) {
        return calls.answer(request, body);
    }
}
