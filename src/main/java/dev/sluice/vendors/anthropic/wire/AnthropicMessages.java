package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;
import java.util.List;
import java.util.Objects;

/**
 * Anthropic's Messages API ({@code POST /v1/messages}), translated to and from the internal
 * model, as Anthropic's API reference describes it and as LiteLLM maps OpenAI's chat
 * completions onto it. Pure translation: no HTTP.
 *
 * <p>The provider direction (an OpenAI-speaking caller, an Anthropic deployment) is
 * {@link #encodeRequest}, {@link #decodeAnswer} and {@link #streamDecoder}; the entry direction
 * (a caller speaking Anthropic's API) is {@link #decodeRequest}, {@link #encodeAnswer} and
 * {@link #streamEncoder}.
 *
 * <p>Encoding refuses what Anthropic has no place for with an {@link IllegalArgumentException}
 * naming it (an image in an assistant turn, tool arguments that are not a JSON object); the
 * OpenAI parameters Anthropic cannot take are listed in {@link Encoded#unsupported()} for the
 * caller of this class to refuse or drop.
 */
public final class AnthropicMessages {
    /** {@code max_tokens} when neither the caller nor the deployment's catalog entry gives one. */
    public static final int DEFAULT_MAX_TOKENS = 4096;

    private AnthropicMessages() {}

    /**
     * How a request is written for one deployment.
     *
     * @param model            the model Anthropic is asked for
     * @param defaultMaxTokens {@code max_tokens} when the caller gives none
     */
    public record Options(String model, int defaultMaxTokens) {
        public Options {
            Objects.requireNonNull(model, "model");
            if (defaultMaxTokens < 1) {
                throw new IllegalArgumentException("defaultMaxTokens: " + defaultMaxTokens + " (expected: >= 1)");
            }
        }
    }

    /**
     * A request body as Anthropic takes it.
     *
     * @param body        the Messages API body
     * @param unsupported the caller's OpenAI parameters Anthropic cannot take; left out of {@code body}
     * @param jsonMode    whether a structured output was asked as the forced {@code json_tool_call}, whose
     *                    input then comes back as the answer's text
     */
    public record Encoded(ObjectNode body, List<String> unsupported, boolean jsonMode) {
        public Encoded {
            unsupported = List.copyOf(unsupported);
        }
    }

    /** A {@link ChatRequest} as a Messages API body. */
    public static Encoded encodeRequest(ChatRequest request, Options options) {
        return AnthropicRequests.encode(request, options);
    }

    /** Whether an OpenAI chat body asks a structured output, which Anthropic is given as a forced tool. */
    public static boolean asksJson(JsonNode openAiBody) {
        String type = openAiBody.path("response_format").path("type").asText("");
        return type.equals("json_object") || type.equals("json_schema");
    }

    /** A Messages API answer as a {@link ChatAnswer}; with {@code jsonMode} the forced tool's input is the text. */
    public static ChatAnswer decodeAnswer(JsonNode answer, boolean jsonMode) {
        return AnthropicAnswers.decode(answer, jsonMode);
    }

    /** A Messages API request body as a {@link ChatRequest}, for an entry API that takes Anthropic's requests. */
    public static ChatRequest decodeRequest(JsonNode body) {
        return AnthropicRequestDecoder.decode(body);
    }

    /** A {@link ChatAnswer} as a Messages API answer. */
    public static ObjectNode encodeAnswer(ChatAnswer answer) {
        return AnthropicAnswerEncoder.encode(answer);
    }

    /** A writer of one stream's events in Anthropic's form. */
    public static AnthropicStreamEncoder streamEncoder() {
        return new AnthropicStreamEncoder();
    }

    /** A reader for one stream's events. */
    public static AnthropicStreamDecoder streamDecoder(boolean jsonMode) {
        return new AnthropicStreamDecoder(jsonMode);
    }
}
