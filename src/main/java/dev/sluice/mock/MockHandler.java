package dev.sluice.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.Optional;

/**
 * Answers every request a mock receives. The order, top to bottom: route → read the body →
 * pick the mode (counting {@code times}) → record the call → refuse a body that is not a
 * JSON object → raise the mode's error, if any → otherwise answer, in the way the mode
 * says: at once, late, cut off, or never.
 */
final class MockHandler implements Handler<HttpServerRequest> {

    /** A {@code cut} stream sends this many events and then drops the connection. */
    static final int CUT_AFTER_EVENTS = 2;

    private final Vertx vertx;
    private final MockOptions options;
    private final MockModeSchedule schedule;
    private final MockLedger ledger;
    private final MockErrors errors;
    private final MockFaults faults;
    private final MockReplies replies;
    private final MockStreamEvents streamEvents;

    MockHandler(Vertx vertx, MockOptions options, MockModeSchedule schedule, MockLedger ledger, Clock clock) {
        this.vertx = vertx;
        this.options = options;
        this.schedule = schedule;
        this.ledger = ledger;
        this.errors = new MockErrors(options);
        this.faults = new MockFaults(options, errors);
        this.replies = new MockReplies(options.name(), clock);
        this.streamEvents = new MockStreamEvents(replies);
    }

    @Override
    public void handle(HttpServerRequest request) {
        MockRoute route = MockRoute.match(request.method(), request.path());
        switch (route.kind()) {
            case ROOT -> MockResponses.json(request.response(), replies.identity(schedule.current()));
            case MODELS -> MockResponses.json(request.response(), replies.models());
            case UNKNOWN -> request.body().onComplete(ignored -> MockResponses.error(
                    request.response(), errors.unknownRoute(request.method().name(), request.path())));
            case CHAT, COMPLETION, EMBEDDING -> request.body().onSuccess(body -> serveModelCall(request, route, body));
        }
    }

    private void serveModelCall(HttpServerRequest request, MockRoute route, Buffer rawBody) {
        MockMode mode = schedule.next();
        Optional<JsonNode> body = MockJson.parse(rawBody);
        ledger.recordCall(body.orElse(NullNode.getInstance()), request.headers());
        if (body.isEmpty() || !body.get().isObject()) {
            MockResponses.error(request.response(), errors.badJson());
            return;
        }
        MockCall call = MockCall.of(route, body.get());
        Optional<MockError> error = faults.errorFor(mode, call, request.headers());
        if (error.isPresent()) {
            MockResponses.error(request.response(), error.get());
            return;
        }
        switch (mode) {
            case SLOW -> answer(request, call, options.delay().toMillis());
            case CUT -> cut(request, call);
            case HANG -> exchange(request); // answers nothing; the exchange only notices the hang-up
            default -> answer(request, call, 0);
        }
    }

    private void answer(HttpServerRequest request, MockCall call, long delayMillis) {
        if (call.stream()) {
            new MockStreamWriter(exchange(request), streamEvents.of(call), delayMillis / 10, MockStreamWriter.NEVER)
                    .start(delayMillis);
        } else if (delayMillis == 0) {
            // The benchmark's path: no exchange, no timer, one write.
            MockResponses.json(request.response(), replies.answer(call));
        } else {
            MockExchange exchange = exchange(request);
            exchange.after(delayMillis, () -> exchange.endJson(replies.answer(call)));
        }
    }

    private void cut(HttpServerRequest request, MockCall call) {
        MockExchange exchange = exchange(request);
        if (call.stream()) {
            new MockStreamWriter(exchange, streamEvents.of(call), 0, CUT_AFTER_EVENTS).start(0);
        } else {
            exchange.cut();
        }
    }

    private MockExchange exchange(HttpServerRequest request) {
        return new MockExchange(vertx, request, ledger::recordClientGone);
    }
}
