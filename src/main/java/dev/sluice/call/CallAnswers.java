package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.http.Drain;
import dev.sluice.router.RouteOutcome;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;

/**
 * The last stage of a model call: what routing came to, written to the caller with its
 * routed headers, its limits and its cost ({@link AnswerWriter}), and the call's accounting
 * ended. A stream was written as it came; its stage ends when the stream does.
 */
record CallAnswers(RoutedErrors errors, CachedCalls cached, AnswerWriter writer) {

    Future<Void> answer(RoutedCall routed, RouteOutcome<Answer> outcome) {
        ModelCall call = routed.call();
        CallCharge charge = routed.charge();
        HttpServerResponse response = call.response;
        String requested = routed.admitted().groupName();
        call.events.routed(outcome);
        if (outcome.cancelled() && call.state.cut()) {
            // The gateway stopped before any answer came: the caller is told to call again.
            CallerErrors.write(response, call.codec, Drain.cut());
            charge.unserved(requested, Drain.cut().status());
            return Future.succeededFuture();
        }
        if (outcome.cancelled()) {
            charge.unserved(requested, CallEnd.CLIENT_CLOSED);
            return Future.succeededFuture();
        }
        if (outcome.served().isEmpty()) {
            writer.errorHead(routed, requested);
            errors.answer(response, outcome, call.codec);
            charge.unserved(outcome.lastGroup() == null ? requested : outcome.lastGroup(), response.getStatusCode());
            return Future.succeededFuture();
        }
        return switch (outcome.served().get()) {
            case Answer.Streaming streaming -> streaming.relay().finished().mapEmpty();
            // What the entry API keeps of the answer (a response a later call continues) is kept before the caller reads it.
            // So is the cache's copy: a request sent once this call has ended finds it.
            case Answer.Whole whole -> routed.answers().settled()
                    .transform(kept -> cached.storeWhole(routed.resolved(), outcome.lastGroup(), whole)).transform(kept -> {
                writer.whole(routed, outcome, whole);
                return Future.<Void>succeededFuture();
            });
        };
    }
}
