package dev.sluice.vendors.anthropic.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockCall;
import dev.sluice.vendors.mock.MockError;
import dev.sluice.vendors.mock.MockExchange;
import dev.sluice.vendors.mock.MockHandler;
import dev.sluice.vendors.mock.MockLedger;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockModeSchedule;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockResponses;
import dev.sluice.vendors.mock.MockStreamWriter;
import dev.sluice.vendors.mock.MockTokens;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers a mock speaking Anthropic's Messages API: {@code POST /v1/messages}, whole or as
 * server-sent events, {@code POST /v1/messages/count_tokens}, and {@code GET /v1/models}; and Claude on Vertex AI's
 * {@code POST /v1/projects/P/locations/L/publishers/anthropic/models/MODEL:rawPredict} (or
 * {@code :streamRawPredict}), whose body names no model and carries
 * {@code anthropic_version: vertex-2023-10-16} instead. The order, top to bottom: route → read the
 * body → pick the mode → record the call → refuse a body that is not a JSON object or lacks
 * {@code model}, {@code messages} or {@code max_tokens}, as Anthropic does → raise the mode's
 * error, Anthropic's way → otherwise answer as the mode says.
 *
 * <p>The modes: {@code fail} is 529 {@code overloaded_error}; {@code ratelimit} 429
 * {@code rate_limit_error} with {@code retry-after}; {@code auth} 401
 * {@code authentication_error} unless {@code x-api-key} (or a bearer token) is the mock's key; {@code notfound}
 * 404 {@code not_found_error}; {@code reject} 400 {@code invalid_request_error};
 * {@code context} 400 "prompt is too long: N tokens > M maximum" over {@code --max-chars};
 * {@code policy} a refusal ({@code stop_reason: refusal}) when the prompt has the trigger
 * word, as Claude refuses; {@code cut} a stream cut after two events, or a dropped
 * connection; {@code hang} no answer; {@code slow} a late answer.
 */
public final class AnthropicMockHandler implements Handler<HttpServerRequest> {
    private final Vertx vertx;
    private final MockOptions options;
    private final MockModeSchedule schedule;
    private final MockLedger ledger;
    private final AnthropicMockErrors errors;
    private final AnthropicMockReplies replies;

    public AnthropicMockHandler(MockApi.Parts parts) {
        this.vertx = parts.vertx();
        this.options = parts.options();
        this.schedule = parts.schedule();
        this.ledger = parts.ledger();
        this.errors = new AnthropicMockErrors(options);
        this.replies = new AnthropicMockReplies(options.name());
    }

    /** Claude on Vertex AI: the model, and whether the method streams, are in the path. */
    private static final Pattern VERTEX = Pattern.compile(
            "/v1/projects/[^/]+/locations/[^/]+/publishers/anthropic/models/([^/:]+):(rawPredict|streamRawPredict)");
    static final String VERTEX_VERSION = "vertex-2023-10-16";

    @Override
    public void handle(HttpServerRequest request) {
        String path = request.path();
        Matcher vertex = VERTEX.matcher(path);
        if (request.method() == HttpMethod.POST && vertex.matches()) {
            String model = vertex.group(1);
            request.body().onSuccess(body -> serve(request, body, model));
        } else if (request.method() == HttpMethod.POST && path.equals("/v1/messages/count_tokens")) {
            request.body().onSuccess(body -> countTokens(request, body));
        } else if (request.method() == HttpMethod.POST && (path.equals("/v1/messages") || path.equals("/messages"))) {
            request.body().onSuccess(body -> serve(request, body, null));
        } else if (request.method() == HttpMethod.GET && path.equals("/")) {
            MockResponses.json(request.response(), buffer(JsonNodeFactory.instance.objectNode().put("name", options.name())
                    .put("mode", schedule.current().cliName()).put("api", MockApi.ANTHROPIC.cliName())));
        } else if (request.method() == HttpMethod.GET && (path.equals("/v1/models") || path.equals("/models"))) {
            MockResponses.json(request.response(), buffer(models()));
        } else {
            request.body().onComplete(ignored -> MockResponses.error(request.response(), errors.unknownRoute()));
        }
    }

    /** @param vertexModel the model named in a Vertex AI path, or null for Anthropic's own {@code /v1/messages} */
    private void serve(HttpServerRequest request, Buffer rawBody, String vertexModel) {
        MockMode mode = schedule.next();
        Optional<JsonNode> body = ledger.recordCall(rawBody, request.headers());
        if (vertexModel != null && body.isPresent() && body.get() instanceof ObjectNode vertexBody) {
            if (!VERTEX_VERSION.equals(vertexBody.path("anthropic_version").asText(null))) {
                MockResponses.error(request.response(), errors.missingField("anthropic_version"));
                return;
            }
            body = Optional.of(vertexBody.deepCopy().put("model", vertexModel));
        }
        Optional<MockError> refused = body.isEmpty() || !body.get().isObject() ? Optional.of(errors.standing().badJson()) : missing(body.get());
        if (MockResponses.errorIfAny(request.response(), refused)) {
            return;
        }
        AnthropicMockCall call = AnthropicMockCall.of(body.get());
        if (MockResponses.errorIfAny(request.response(), errorFor(mode, call, request))) {
            return;
        }
        AnthropicMockReplies.Reply reply = replies.reply(call, mode == MockMode.POLICY && call.mentions(options.triggerWord()));
        switch (mode) {
            case SLOW -> answer(request, call, reply, options.delay().toMillis(), MockStreamWriter.NEVER);
            case CUT -> {
                if (call.stream()) {
                    answer(request, call, reply, 0, MockHandler.CUT_AFTER_EVENTS);
                } else {
                    exchange(request).cut();
                }
            }
            case HANG -> exchange(request);
            default -> answer(request, call, reply, 0, MockStreamWriter.NEVER);
        }
    }

    /**
     * {@code count_tokens}: the prompt's tokens as the mock counts them in its answers' usage,
     * refused as a call is in the failing modes (a stream, a cut or a hang has no meaning here).
     */
    private void countTokens(HttpServerRequest request, Buffer rawBody) {
        MockMode mode = schedule.next();
        Optional<JsonNode> body = ledger.recordCall(rawBody, request.headers());
        if (body.isEmpty() || !body.get().isObject() || body.get().path("model").isMissingNode()
                || body.get().path("messages").isMissingNode()) {
            MockResponses.error(request.response(), body.isPresent() && body.get().isObject()
                    ? errors.missingField(body.get().has("model") ? "messages" : "model") : errors.standing().badJson());
            return;
        }
        AnthropicMockCall call = AnthropicMockCall.of(body.get());
        if (MockResponses.errorIfAny(request.response(), errorFor(mode, call, request))) {
            return;
        }
        MockResponses.json(request.response(), buffer(JsonNodeFactory.instance.objectNode()
                .put("input_tokens", MockTokens.estimate(call.promptChars()))));
    }

    private Optional<MockError> missing(JsonNode body) {
        for (String field : List.of("model", "messages", "max_tokens")) {
            if (body.path(field).isMissingNode() || body.path(field).isNull()) {
                return Optional.of(errors.missingField(field));
            }
        }
        return Optional.empty();
    }

    private Optional<MockError> errorFor(MockMode mode, AnthropicMockCall call, HttpServerRequest request) {
        return switch (mode) {
            case OK, SLOW, CUT, HANG, POLICY -> Optional.empty();
            case FAIL -> Optional.of(errors.overloaded());
            case RATELIMIT -> Optional.of(errors.standing().rateLimited());
            case AUTH -> hasKey(request) ? Optional.empty() : Optional.of(errors.standing().invalidApiKey());
            case NOTFOUND -> Optional.of(errors.modelNotFound(call.model()));
            case REJECT -> Optional.of(errors.standing().invalidParameter());
            case CONTEXT -> call.promptChars() > options.maxChars()
                    ? Optional.of(errors.promptTooLong(MockTokens.estimate(call.promptChars()), options.maxChars() / 4))
                    : Optional.empty();
        };
    }

    /** Anthropic takes an API key in {@code x-api-key}; its SDKs may send it as a bearer token instead. */
    private boolean hasKey(HttpServerRequest request) {
        return options.apiKey().equals(request.getHeader("x-api-key"))
                || ("Bearer " + options.apiKey()).equals(request.getHeader("Authorization"));
    }

    private void answer(HttpServerRequest request, AnthropicMockCall call, AnthropicMockReplies.Reply reply, long delayMillis,
            int cutAfter) {
        if (call.stream()) {
            new MockStreamWriter(exchange(request), AnthropicMockStream.events(reply), delayMillis / 10, cutAfter).start(delayMillis);
            return;
        }
        MockExchange exchange = exchange(request);
        exchange.after(delayMillis, () -> exchange.endJson(buffer(AnthropicMockReplies.message(reply))));
    }

    private ObjectNode models() {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        list.putArray("data").addObject().put("type", "model").put("id", MockCall.UNNAMED_MODEL)
                .put("display_name", options.name()).put("created_at", "2025-01-01T00:00:00Z");
        return list.put("has_more", false).put("first_id", MockCall.UNNAMED_MODEL).put("last_id", MockCall.UNNAMED_MODEL);
    }

    private MockExchange exchange(HttpServerRequest request) {
        return new MockExchange(vertx, request, ledger::recordClientGone);
    }

    private static Buffer buffer(ObjectNode node) {
        return Buffer.buffer(node.toString());
    }
}
