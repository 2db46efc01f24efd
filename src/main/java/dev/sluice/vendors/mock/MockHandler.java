package dev.sluice.vendors.mock;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.Optional;

/**
 * Answers every request an OpenAI mock receives: chat completions, text completions,
 * embeddings and the Responses API ({@code POST /v1/responses}, see {@link MockResponsesApi});
 * images, audio, moderations and rerank are {@link MockMediaApi}'s.
 * The order, top to bottom: route → read the body → pick the mode (counting {@code times}) →
 * record the call → refuse a body that is not a JSON object, or (Responses) an input of the
 * wrong shape or an unknown {@code previous_response_id} → raise the mode's error, if any →
 * otherwise answer, in the way the mode says: at once, late, cut off, or never.
 */
public final class MockHandler implements Handler<HttpServerRequest> {

    /** A {@code cut} stream sends this many events and then drops the connection. */
    public static final int CUT_AFTER_EVENTS = 2;

    private final Vertx vertx;
    private final MockOptions options;
    private final MockModeSchedule schedule;
    private final MockLedger ledger;
    private final MockErrors errors;
    private final MockFaults faults;
    private final MockReplies replies;
    private final MockStreamEvents streamEvents;
    private final MockResponsesApi responses;
    private final MockMediaApi media;

    MockHandler(Vertx vertx, MockOptions options, MockModeSchedule schedule, MockLedger ledger, Clock clock) {
        this.vertx = vertx;
        this.options = options;
        this.schedule = schedule;
        this.ledger = ledger;
        this.errors = new MockErrors(options);
        this.faults = new MockFaults(options, errors);
        this.replies = new MockReplies(options.name(), clock);
        this.streamEvents = new MockStreamEvents(replies);
        this.responses = new MockResponsesApi(clock, errors, replies);
        this.media = new MockMediaApi(vertx, options, ledger, errors, faults, new MockMediaReplies(options, clock, errors));
    }

    @Override
    public void handle(HttpServerRequest request) {
        MockRoute route = MockRoute.match(request.method(), request.path());
        switch (route.kind()) {
            case ROOT -> MockResponses.json(request.response(), replies.identity(schedule.current()));
            case MODELS -> MockResponses.json(request.response(), replies.models());
            case UNKNOWN -> request.body().onComplete(ignored -> MockResponses.error(
                    request.response(), errors.unknownRoute(request.method().name(), request.path())));
            case CHAT, COMPLETION, EMBEDDING, RESPONSES -> request.body().onSuccess(body -> serveModelCall(request, route, body));
            case IMAGES, SPEECH, TRANSCRIPTION, TRANSLATION, MODERATION, RERANK -> media.serve(request, route, schedule.next());
        }
    }

    private void serveModelCall(HttpServerRequest request, MockRoute route, Buffer rawBody) {
        MockMode mode = schedule.next();
        Optional<JsonNode> body = ledger.recordCall(rawBody, request.headers());
        if (body.isEmpty() || !body.get().isObject()) {
            MockResponses.error(request.response(), errors.standing().badJson());
            return;
        }
        Optional<MockError> refused = route.kind() == MockRoute.Kind.RESPONSES
                ? responses.refusal(body.get()) : Optional.empty();
        if (MockResponses.errorIfAny(request.response(), refused)) {
            return;
        }
        MockReply reply = route.kind() == MockRoute.Kind.RESPONSES ? responses.reply(body.get()) : reply(route, body.get());
        if (MockResponses.errorIfAny(request.response(), faults.errorFor(mode, reply.call(), request.headers()))) {
            return;
        }
        switch (mode) {
            case SLOW -> answer(request, reply, options.delay().toMillis());
            case CUT -> cut(request, reply);
            case HANG -> exchange(request); // answers nothing; the exchange only notices the hang-up
            default -> answer(request, reply, 0);
        }
    }

    /** A chat completion, text completion or embeddings call. */
    private MockReply reply(MockRoute route, JsonNode body) {
        MockCall call = MockCall.of(route, body);
        return new MockReply(call, call.stream(), () -> replies.answer(call), () -> streamEvents.of(call));
    }

    private void answer(HttpServerRequest request, MockReply reply, long delayMillis) {
        if (reply.stream()) {
            new MockStreamWriter(exchange(request), reply.events().get(), delayMillis / 10, MockStreamWriter.NEVER)
                    .start(delayMillis);
        } else if (delayMillis == 0) {
            // The benchmark's path: no exchange, no timer, one write.
            MockResponses.json(request.response(), reply.whole().get());
        } else {
            MockExchange exchange = exchange(request);
            exchange.after(delayMillis, () -> exchange.endJson(reply.whole().get()));
        }
    }

    private void cut(HttpServerRequest request, MockReply reply) {
        MockExchange exchange = exchange(request);
        if (reply.stream()) {
            new MockStreamWriter(exchange, reply.events().get(), 0, CUT_AFTER_EVENTS).start(0);
        } else {
            exchange.cut();
        }
    }

    private MockExchange exchange(HttpServerRequest request) {
        return new MockExchange(vertx, request, ledger::recordClientGone);
    }
}
