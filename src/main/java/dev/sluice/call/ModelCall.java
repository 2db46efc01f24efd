package dev.sluice.call;

import dev.sluice.accounts.Caller;
import dev.sluice.vendors.entry.IngressCodec;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import java.util.Optional;

/**
 * One model call as it was opened: its request and response, its entry API, its id, what it
 * has open upstream, and where its events are fired. What the call asks and who answers it
 * are not here: each stage of {@link ModelCallPipeline} returns them as a {@link CallStage}
 * value the next stage takes. Only the endings that can cut across every stage (a fault, a
 * hang-up, the gateway's stop) read how far it got, through {@link #reached()}. Touched only
 * on the request's event loop.
 */
final class ModelCall {
    final HttpServerRequest request;
    final HttpServerResponse response;
    /** The entry API the call came in through. */
    final IngressCodec codec;
    final String callId;
    /** What the call has open upstream, so that a hang-up can cancel it. */
    final CallState state;
    /** Where the call's events are fired: its listeners, the headers among them. */
    final CallListeners events;
    /** The routed headers the call's events set, for the answer's writer to apply. */
    final RoutedHeaders headers;
    /** Completed when the response has ended or the caller has gone: the call is done with its body. */
    final Promise<Void> ended = Promise.promise();

    /** The last stage the call reached; null until its caller is known. */
    private CallStage reached;

    /** @param headers the routed headers, which {@code events} tells too */
    ModelCall(HttpServerRequest request, IngressCodec codec, String callId, RoutedHeaders headers, CallListeners events) {
        this.request = request;
        this.response = request.response();
        this.codec = codec;
        this.callId = callId;
        this.state = new CallState(request.version() == HttpVersion.HTTP_1_0);
        this.headers = headers;
        this.events = events;
    }

    /** The call has reached {@code stage}: returned, for the stage that follows. */
    <S extends CallStage> S reached(S stage) {
        this.reached = stage;
        return stage;
    }

    /** The last stage the call reached, if its caller is known yet. */
    Optional<CallStage> reached() {
        return Optional.ofNullable(reached);
    }

    /** The caller, once known (empty: not yet authenticated, or refused). */
    Optional<Caller> caller() {
        return reached().map(CallStage::caller);
    }

    /** Whether the call was admitted: its ticket is then finished however it ends. */
    boolean admitted() {
        return reached().flatMap(CallStage::asAdmitted).isPresent();
    }
}
