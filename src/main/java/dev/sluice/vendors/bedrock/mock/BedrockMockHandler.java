package dev.sluice.vendors.bedrock.mock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vendors.anthropic.mock.AnthropicMockReplies;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockExchange;
import dev.sluice.vendors.mock.MockHandler;
import dev.sluice.vendors.mock.MockLedger;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockModeSchedule;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockReplies;
import dev.sluice.vendors.mock.MockResponses;
import dev.sluice.vendors.mock.MockStreamWriter;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A mock of Amazon Bedrock Runtime: {@code POST /model/{modelId}/converse},
 * {@code /converse-stream}, {@code /invoke} (embeddings, and a Claude model's Messages API body)
 * and {@code /invoke-with-response-stream} (a Claude model's, {@link BedrockMockClaude}), and
 * {@code GET /} (its name and mode). The order, top to bottom: route → read the body → pick the mode → record the call →
 * require a SigV4 signature → refuse a body that is not a JSON object → fail as the mode says,
 * the AWS way → otherwise answer, at once, late, cut off or never.
 *
 * <p>A call without an {@code Authorization: AWS4-HMAC-SHA256 Credential=...} header is refused
 * as AWS refuses it, in every mode; the signature itself is not checked. Mode {@code auth}
 * accepts only a credential whose access key id is the mock's {@code --api-key}.
 */
public final class BedrockMockHandler implements Handler<HttpServerRequest> {
    private static final String SIGV4 = "AWS4-HMAC-SHA256 Credential=";

    private final Vertx vertx;
    private final MockOptions options;
    private final MockModeSchedule schedule;
    private final MockLedger ledger;
    private final BedrockMockErrors errors;
    private final BedrockMockReplies replies;
    private final BedrockMockClaude claude;
    private final MockReplies identity;

    public BedrockMockHandler(MockApi.Parts parts) {
        this.vertx = parts.vertx();
        this.options = parts.options();
        this.schedule = parts.schedule();
        this.ledger = parts.ledger();
        this.errors = new BedrockMockErrors(options);
        this.replies = new BedrockMockReplies(options.name());
        this.claude = new BedrockMockClaude(options.name());
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
        Optional<JsonNode> body = ledger.recordCall(rawBody, request.headers());
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
        String refusal = call.claude() ? BedrockMockClaude.refusal(body.get())
                : call.action().equals(BedrockMockCall.INVOKE_STREAM) ? "The model " + call.modelId()
                        + " does not stream through InvokeModelWithResponseStream in this mock." : null;
        if (refusal != null) {
            errors.invalid(response, refusal);
            return;
        }
        if (failed(mode, call, authorization, response)) {
            return;
        }
        boolean blocked = mode == MockMode.POLICY && call.mentions(options.triggerWord());
        Answer answer = answer(call, body.get(), blocked);
        switch (mode) {
            case SLOW -> send(request, answer, options.delay().toMillis(), MockStreamWriter.NEVER);
            case CUT -> {
                if (call.stream()) {
                    send(request, answer, 0, MockHandler.CUT_AFTER_EVENTS);
                } else {
                    exchange(request).cut();
                }
            }
            case HANG -> exchange(request);
            default -> send(request, answer, 0, MockStreamWriter.NEVER);
        }
    }

    /** An answer ready to send: its event-stream frames, or its whole JSON body. */
    private record Answer(List<Buffer> frames, Buffer whole) {}

    private Answer answer(BedrockMockCall call, JsonNode body, boolean blocked) {
        if (call.claude()) {
            AnthropicMockReplies.Reply reply = claude.reply(call, body, blocked);
            return call.stream() ? new Answer(BedrockMockClaude.chunks(reply), null) : new Answer(null, BedrockMockClaude.message(reply));
        }
        if (call.stream()) {
            return new Answer(replies.converseStream(call, blocked), null);
        }
        return new Answer(null, call.embeddings() ? replies.embeddings(call) : replies.converse(call, blocked));
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

    private void send(HttpServerRequest request, Answer answer, long delayMillis, int cutAfter) {
        if (answer.frames() != null) {
            new BedrockMockStream(exchange(request), answer.frames(), delayMillis / 10, cutAfter).start(delayMillis);
            return;
        }
        MockExchange exchange = exchange(request);
        exchange.response().putHeader("x-amzn-RequestId", java.util.UUID.randomUUID().toString());
        exchange.after(delayMillis, () -> exchange.endJson(answer.whole()));
    }

    private MockExchange exchange(HttpServerRequest request) {
        return new MockExchange(vertx, request, ledger::recordClientGone);
    }
}
