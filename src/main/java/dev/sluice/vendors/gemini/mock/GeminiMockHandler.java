package dev.sluice.vendors.gemini.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockError;
import dev.sluice.vendors.mock.MockExchange;
import dev.sluice.vendors.mock.MockHandler;
import dev.sluice.vendors.mock.MockLedger;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockModeSchedule;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockReplies;
import dev.sluice.vendors.mock.MockResponses;
import dev.sluice.vendors.mock.MockStreamWriter;
import dev.sluice.vendors.mock.MockTokens;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Optional;

/**
 * Answers a mock speaking Gemini's API, on Google AI Studio's paths and Vertex AI's alike. The
 * order, top to bottom, as in {@link MockHandler}: route → read the body → pick the mode →
 * record the call → refuse a body that is not a JSON object → raise the mode's error, if any
 * → otherwise answer at once, late, cut off, or never. A {@code policy} call that mentions the
 * trigger word is answered as Gemini answers a blocked prompt: a 200 with
 * {@code promptFeedback.blockReason} and no candidates.
 */
public final class GeminiMockHandler implements Handler<HttpServerRequest> {
    private final Vertx vertx;
    private final MockOptions options;
    private final MockModeSchedule schedule;
    private final MockLedger ledger;
    private final GeminiMockErrors errors;
    private final GeminiMockReplies replies;
    private final MockReplies identity;

    public GeminiMockHandler(MockApi.Parts parts) {
        this.vertx = parts.vertx();
        this.options = parts.options();
        this.schedule = parts.schedule();
        this.ledger = parts.ledger();
        this.errors = new GeminiMockErrors(options);
        this.replies = new GeminiMockReplies(options.name());
        this.identity = new MockReplies(options.name(), parts.clock());
    }

    @Override
    public void handle(HttpServerRequest request) {
        GeminiMockRoute route = GeminiMockRoute.match(request.method(), request.path());
        switch (route.kind()) {
            case ROOT -> MockResponses.json(request.response(), identity.identity(schedule.current()));
            case UNKNOWN -> request.body().onComplete(ignored -> MockResponses.error(
                    request.response(), errors.unknownRoute(request.method().name(), request.path())));
            default -> request.body().onSuccess(body -> serveModelCall(request, route, body));
        }
    }

    private void serveModelCall(HttpServerRequest request, GeminiMockRoute route, Buffer rawBody) {
        MockMode mode = schedule.next();
        Optional<JsonNode> body = ledger.recordCall(rawBody, request.headers());
        if (body.isEmpty() || !body.get().isObject()) {
            MockResponses.error(request.response(), errors.badJson());
            return;
        }
        GeminiMockCall call = GeminiMockCall.of(route, body.get());
        if (MockResponses.errorIfAny(request.response(), errorFor(mode, call, request))) {
            return;
        }
        switch (mode) {
            case SLOW -> answer(request, call, mode, options.delay().toMillis());
            case CUT -> {
                MockExchange exchange = exchange(request);
                if (route.kind() == GeminiMockRoute.Kind.STREAM) {
                    new MockStreamWriter(exchange, events(request, call, mode), 0, MockHandler.CUT_AFTER_EVENTS).start(0);
                } else {
                    exchange.cut();
                }
            }
            case HANG -> exchange(request);
            default -> answer(request, call, mode, 0);
        }
    }

    private Optional<MockError> errorFor(MockMode mode, GeminiMockCall call, HttpServerRequest request) {
        return switch (mode) {
            case OK, SLOW, CUT, HANG, POLICY -> Optional.empty();
            case FAIL -> Optional.of(errors.internal());
            case RATELIMIT -> Optional.of(errors.rateLimited());
            case AUTH -> authorised(request) ? Optional.empty() : Optional.of(errors.unauthenticated(hasCredentials(request)));
            case NOTFOUND -> Optional.of(errors.modelNotFound(call.route().model(), call.route().method()));
            case REJECT -> Optional.of(errors.invalidArgument());
            case CONTEXT -> call.promptChars() > options.maxChars()
                    ? Optional.of(errors.tokenLimit(MockTokens.estimate(call.promptChars()), options.maxChars() / 4))
                    : Optional.empty();
        };
    }

    /** Google AI Studio takes the key in {@code x-goog-api-key} (or {@code ?key=}); Vertex AI a bearer token. */
    private boolean authorised(HttpServerRequest request) {
        return options.apiKey().equals(request.getHeader("x-goog-api-key")) || options.apiKey().equals(request.getParam("key"))
                || ("Bearer " + options.apiKey()).equals(request.getHeader("Authorization"));
    }

    private static boolean hasCredentials(HttpServerRequest request) {
        return request.getHeader("x-goog-api-key") != null || request.getParam("key") != null
                || request.getHeader("Authorization") != null;
    }

    private void answer(HttpServerRequest request, GeminiMockCall call, MockMode mode, long delayMillis) {
        GeminiMockRoute.Kind kind = call.route().kind();
        if (kind == GeminiMockRoute.Kind.STREAM && sse(request)) {
            new MockStreamWriter(exchange(request), events(request, call, mode), delayMillis / 10, MockStreamWriter.NEVER)
                    .start(delayMillis);
            return;
        }
        Buffer body = switch (kind) {
            case GENERATE -> GeminiMockErrors.buffer(whole(call, mode));
            case STREAM -> streamAsArray(call, mode);
            default -> GeminiMockErrors.buffer(replies.embeddings(call));
        };
        MockExchange exchange = exchange(request);
        exchange.after(delayMillis, () -> exchange.endJson(body));
    }

    private ObjectNode whole(GeminiMockCall call, MockMode mode) {
        return blocks(call, mode) ? replies.blocked(call) : replies.answer(call);
    }

    private List<Buffer> events(HttpServerRequest request, GeminiMockCall call, MockMode mode) {
        return blocks(call, mode) ? List.of(GeminiMockReplies.event(replies.blocked(call))) : replies.stream(call);
    }

    /** Without {@code alt=sse} Gemini streams one JSON array of responses. */
    private Buffer streamAsArray(GeminiMockCall call, MockMode mode) {
        if (blocks(call, mode)) {
            return Buffer.buffer("[").appendBuffer(GeminiMockErrors.buffer(replies.blocked(call))).appendString("]");
        }
        Buffer array = Buffer.buffer("[");
        List<Buffer> events = replies.stream(call);
        for (int i = 0; i < events.size(); i++) {
            Buffer event = events.get(i);
            array.appendBuffer(event.getBuffer(6, event.length() - 4)).appendString(i + 1 < events.size() ? "," : "]");
        }
        return array;
    }

    private boolean blocks(GeminiMockCall call, MockMode mode) {
        return mode == MockMode.POLICY && call.mentions(options.triggerWord());
    }

    private static boolean sse(HttpServerRequest request) {
        return "sse".equals(request.getParam("alt"));
    }

    private MockExchange exchange(HttpServerRequest request) {
        return new MockExchange(vertx, request, ledger::recordClientGone);
    }
}
