package dev.sluice.ops.callbacks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.Required;
import java.time.Instant;
import java.util.List;

/**
 * One finished model call as the logging callbacks see it: built once on the call's event
 * loop when the call's accounting ends, then read (never changed) by every callback, on the
 * callbacks' own threads. It never holds a key in clear: the caller's virtual key only by its
 * hash, the deployment's key not at all.
 *
 * @param callId    the {@code x-litellm-call-id} of the call
 * @param request   what the caller asked for
 * @param served    the deployment that served, or that answered last; null when none was called
 * @param result    how the call ended
 * @param timing    when it started, answered first and ended
 * @param key       the caller's virtual key, team and user; {@link Key#NONE} without one
 * @param cacheHit  whether the gateway's response cache answered the call
 * @param cacheKey  the response cache's key for the call; null when it has none
 */
public record CallRecord(String callId, Request request, Served served, Result result, Timing timing, Key key,
        boolean cacheHit, String cacheKey) {

    public CallRecord {
        Required.nonNull("callId, request, result, timing, key", callId, request, result, timing, key);
    }

    /** Whether the call was served; a failed call also reaches the failure callbacks. */
    public boolean success() {
        return result.success();
    }

    /**
     * What the caller asked for.
     *
     * @param callType   LiteLLM's name of the call: {@code acompletion}, {@code atext_completion},
     *                   {@code aembedding}, {@code anthropic_messages}, {@code aresponses}
     * @param operation  OpenTelemetry's {@code gen_ai.operation.name}: {@code chat},
     *                   {@code text_completion}, {@code embeddings}
     * @param group      the model group asked for
     * @param endUser    the body's {@code user}; null when it has none
     * @param tags       the call's tags
     * @param parameters the sampling parameters the body set ({@code temperature}, {@code max_tokens}, ...)
     * @param messages   the prompt as the body wrote it; null when message logging is off
     */
    public record Request(String callType, String operation, boolean stream, String group, String endUser,
            List<String> tags, ObjectNode parameters, JsonNode messages) {
        public Request {
            tags = List.copyOf(tags);
        }
    }

    /**
     * The deployment that served the call, or that failed it last.
     *
     * @param provider its provider prefix, LiteLLM's {@code custom_llm_provider} ({@code openai}, {@code azure}, ...)
     * @param model    what the upstream was asked for, after the provider prefix
     * @param apiBase  its base URL; null when the provider's default
     */
    public record Served(String deploymentId, String provider, String model, String apiBase) {}

    /**
     * How the call ended.
     *
     * @param status        the HTTP status the caller got ({@code 499} when it left first)
     * @param cost          what it cost, in US dollars
     * @param responseModel the model the answer named; null when unknown
     * @param finishReasons the answer's finish reasons, in choice order
     * @param response      the answer as the caller got it (a stream's text, assembled); null
     *                      when message logging is off or nothing was answered
     * @param error         why it failed; null when it was served
     */
    public record Result(boolean success, int status, long promptTokens, long completionTokens, double cost,
            String responseModel, List<String> finishReasons, JsonNode response, Error error) {
        public Result {
            finishReasons = List.copyOf(finishReasons);
        }
    }

    /**
     * Why a call failed, as LiteLLM's {@code error_information} tells it.
     *
     * @param message  what went wrong, secrets masked
     * @param type     LiteLLM's exception class: {@code RateLimitError}, {@code InternalServerError}, ...
     * @param code     the HTTP status, as text ({@code "429"})
     * @param provider the provider whose deployment failed; null when none was called
     */
    public record Error(String message, String type, String code, String provider) {}

    /**
     * @param firstToken when the first event of a stream came, or the answer for a whole one
     */
    public record Timing(Instant start, Instant firstToken, Instant end) {}

    /** The caller's virtual key by its hash, with its alias, team and user; any part may be null. */
    public record Key(String hash, String alias, String teamId, String teamAlias, String userId) {
        public static final Key NONE = new Key(null, null, null, null, null);
    }
}
