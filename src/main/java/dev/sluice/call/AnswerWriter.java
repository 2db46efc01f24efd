package dev.sluice.call;

import dev.sluice.accounts.spend.PythonFloats;
import dev.sluice.config.Deployment;
import dev.sluice.http.Replies;
import dev.sluice.router.RouteOutcome;
import dev.sluice.vendors.Providers;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes what routing came to for the caller: the one place a whole answer, a stream and an
 * error get their headers and their cost. A served answer carries the deployment's own
 * headers (masked of its key, under {@link UpstreamHeaders}' names); every routed answer the
 * routed {@code x-litellm-*} headers and the caller's {@code x-ratelimit-*} limits. The cost
 * ({@link CallCharge}) is told in {@value #COST_HEADER}, in US dollars as LiteLLM writes
 * them: a header on a whole answer (with a key's spend) or an error, a trailer on a stream,
 * whose cost is known only at its end and whose head announces the trailer. Shared by a
 * pipeline's calls, on its event loop.
 */
final class AnswerWriter {
    static final String COST_HEADER = "x-litellm-response-cost";

    private final Providers providers;

    AnswerWriter(Providers providers) {
        this.providers = providers;
    }

    /** A whole answer served by the outcome's last deployment, charged, headed and written. */
    void whole(ModelCall call, RouteOutcome<Answer> outcome, Answer.Whole whole) {
        HttpServerResponse response = call.response;
        servedHead(call, outcome.lastDeployment(), whole.upstreamHeaders());
        call.events.wholeAnswerWriting(whole);
        double cost = call.charge().served(outcome.lastGroup(), outcome.lastDeployment(), whole.status(), whole.usage(),
                whole.units());
        response.putHeader(COST_HEADER, PythonFloats.repr(cost));
        call.headers.charged(response, cost);
        if (whole.contentType() != null) {
            response.putHeader("Content-Type", whole.contentType());
        }
        Replies.raw(response, whole.status(), whole.body());
    }

    /** The head of a stream of {@code deployment}, just before it goes out with its first event. */
    void streamHead(ModelCall call, Deployment deployment, MultiMap upstreamHeaders) {
        servedHead(call, deployment, upstreamHeaders);
        call.response.putHeader("Trailer", COST_HEADER);
    }

    /**
     * A stream of {@code deployment} of {@code group} is about to end with {@code status}
     * (completed, or cut after its commit), having used what {@code tally} saw: it is charged,
     * and its cost goes in the trailer while the caller can still have it.
     */
    void streamEnd(ModelCall call, String group, Deployment deployment, int status, StreamTally tally) {
        double cost = call.charge().streamServed(group, deployment, status, tally);
        if (cost >= 0 && !call.response.ended() && !call.response.closed()) {
            call.response.putTrailer(COST_HEADER, PythonFloats.repr(cost));
        }
    }

    /** An error routing ended with is about to be answered: what the call cost (0 unless a refused answer was billed). */
    void errorCost(ModelCall call, String group) {
        if (!call.response.headWritten()) {
            call.response.putHeader(COST_HEADER, PythonFloats.repr(call.charge().errorCost(group)));
        }
    }

    /** The routed headers and the caller's limits, which every routed answer carries, errors included. */
    void routedHead(ModelCall call) {
        call.headers.apply(call.response);
        call.charge().limitHeaders().forEach(call.response::putHeader);
    }

    private void servedHead(ModelCall call, Deployment deployment, MultiMap upstreamHeaders) {
        UpstreamHeaders.copy(KeyMask.of(providers, deployment).headers(upstreamHeaders), call.response);
        routedHead(call);
    }
}
