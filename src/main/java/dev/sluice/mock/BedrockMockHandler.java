package dev.sluice.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Clock;
import java.util.Optional;

/**
 * A mock of Amazon Bedrock Runtime: {@code POST /model/{modelId}/converse},
 * {@code /converse-stream} and {@code /invoke} (embeddings), and {@code GET /} (its name and
 * mode). The order, top to bottom: route → read the body → pick the mode → record the call →
 * require a SigV4 signature → refuse a body that is not a JSON object → fail as the mode says,
 * the AWS way → otherwise answer, at once, late, cut off or never.
 *
 * <p>A call without an {@code Authorization: AWS4-HMAC-SHA256 Credential=...} header is refused
 * as AWS refuses it, in every mode; the signature itself is not checked. Mode {@code auth}
 * accepts only a credential whose access key id is the mock's {@code --api-key}.
 */
final class BedrockMockHandler implements Handler<HttpServerRequest> {
    private static final String SIGV4 = "AWS4-HMAC-SHA256 Credential=";

    private final Vertx vertx;
    private final MockOptions options;
    private final MockModeSchedule schedule;
    private final MockLedger ledger;
    private final BedrockMockErrors errors;
    private final BedrockMockReplies replies;
    private final MockReplies identity;

    BedrockMockHandler(MockApi.Parts parts) {
        this.vertx = parts.vertx();
        this.options = parts.options();
        this.schedule = parts.schedule();
        this.ledger = parts.ledger();
        this.errors = new BedrockMockErrors(options);
        this.replies = new BedrockMockReplies(options.name());
        this.identity = new MockReplies(options.name(), parts.clock());
    }

    @Override
    public void handle(HttpServerRequest request) {
        if (request.method() == HttpMethod.GET && request.path().equals("/")) {
            MockResponses.json(request.response(), identity.identity(schedule.current()));
            return;
        }
        BedrockMockCall route = request.method() == HttpMethod.POST ? BedrockMockCall.route(request.path()) : null;
        if (route == null) {
            request.body().onComplete(ignored -> errors.unknownOperation(request.response()));
            return;
        }
        request.body().onSuccess(body -> serve(request, route, body));
    }

    private void serve(HttpServerRequest request, BedrockMockCall route, Buffer rawBody) {
        MockMode mode = schedule.next();
        Optional<JsonNode> body = MockJson.parse(rawBody);
        ledger.recordCall(body.orElse(NullNode.getInstance()), request.headers());
        HttpServerResponse response = request.response();
        String authorization = request.getHeader("Authorization");
        if (authorization == null || !authorization.startsWith(SIGV4)) {
            errors.missingSignature(response);
            return;
        }
        if (body.isEmpty() || !body.get().isObject()) {
            errors.invalid(response, "Malformed input request, please reformat your input and try again.");
            return;
        }
        BedrockMockCall call = route.read(body.get());
        if (failed(mode, call, authorization, response)) {
            return;
        }
        boolean blocked = mode == MockMode.POLICY && call.mentions(options.triggerWord());
        switch (mode) {
            case SLOW -> answer(request, call, blocked, options.delay().toMillis(), MockStreamWriter.NEVER);
            case CUT -> {
                if (call.stream()) {
                    answer(request, call, blocked, 0, MockHandler.CUT_AFTER_EVENTS);
                } else {
                    exchange(request).cut();
                }
            }
            case HANG -> exchange(request);
            default -> answer(request, call, blocked, 0, MockStreamWriter.NEVER);
        }
    }

    /** Sends the mode's error, if it raises one for this call; returns whether it did. */
    private boolean failed(MockMode mode, BedrockMockCall call, String authorization, HttpServerResponse response) {
        switch (mode) {
            case FAIL -> errors.internal(response);
            case RATELIMIT -> errors.throttled(response);
            case AUTH -> {
                if (authorization.startsWith(SIGV4 + options.apiKey() + "/")) {
                    return false;
                }
                errors.unrecognizedClient(response);
            }
            case NOTFOUND -> errors.notFound(response, call.modelId());
            case REJECT -> errors.invalid(response, "Malformed input request: extraneous key [mock_reject] is not permitted,"
                    + " please reformat your input and try again.");
            case CONTEXT -> {
                if (call.promptChars() <= options.maxChars()) {
                    return false;
                }
                errors.tooLong(response);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private void answer(HttpServerRequest request, BedrockMockCall call, boolean blocked, long delayMillis, int cutAfter) {
        if (call.stream()) {
            new BedrockMockStream(exchange(request), replies.converseStream(call, blocked), delayMillis / 10, cutAfter)
                    .start(delayMillis);
            return;
        }
        Buffer answer = call.embeddings() ? replies.embeddings(call) : replies.converse(call, blocked);
        MockExchange exchange = exchange(request);
        exchange.response().putHeader("x-amzn-RequestId", java.util.UUID.randomUUID().toString());
        exchange.after(delayMillis, () -> exchange.endJson(answer));
    }

    private MockExchange exchange(HttpServerRequest request) {
        return new MockExchange(vertx, request, ledger::recordClientGone);
    }
}
