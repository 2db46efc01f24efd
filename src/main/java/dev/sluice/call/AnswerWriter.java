package dev.sluice.call;

import dev.sluice.accounts.spend.PythonFloats;
import dev.sluice.call.cache.CachedAnswer;
import dev.sluice.config.Deployment;
import dev.sluice.http.Replies;
import dev.sluice.router.RouteOutcome;
import dev.sluice.vendors.Providers;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes what a call came to for the caller: the one place a whole answer, a stream, an error
 * and a hit of the response cache get their headers and their cost. A served answer carries the deployment's own
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
    void whole(RoutedCall routed, RouteOutcome<Answer> outcome, Answer.Whole whole) {
        ModelCall call = routed.call();
        HttpServerResponse response = call.response;
        servedHead(routed, outcome.lastDeployment(), whole.upstreamHeaders());
        call.events.wholeAnswerWriting(whole);
        double cost = routed.charge().served(outcome.lastGroup(), outcome.lastDeployment(), whole.status(), whole.usage(),
                whole.units());
        response.putHeader(COST_HEADER, PythonFloats.repr(cost));
        call.headers.charged(response, cost);
        if (whole.contentType() != null) {
            response.putHeader("Content-Type", whole.contentType());
        }
        Replies.raw(response, whole.status(), whole.body());
    }

    /** The head of a stream of {@code deployment}, just before it goes out with its first event. */
    void streamHead(RoutedCall routed, Deployment deployment, MultiMap upstreamHeaders) {
        servedHead(routed, deployment, upstreamHeaders);
        routed.call().response.putHeader("Trailer", COST_HEADER);
    }

    /**
     * A stream of {@code deployment} of {@code group} is about to end with {@code status}
     * (completed, or cut after its commit), having used what {@code tally} saw: it is charged,
     * and its cost goes in the trailer while the caller can still have it.
     */
    void streamEnd(RoutedCall routed, String group, Deployment deployment, int status, StreamTally tally) {
        HttpServerResponse response = routed.call().response;
        double cost = routed.charge().streamServed(group, deployment, status, routed.tokens().streamUsage(deployment, tally),
                tally.answeredModel());
        if (cost >= 0 && !response.ended() && !response.closed()) {
            response.putTrailer(COST_HEADER, PythonFloats.repr(cost));
        }
    }

    /**
     * An error routing ended with is about to be answered: the routed head, and what the call
     * cost (0 unless a refused answer was billed).
     */
    void errorHead(RoutedCall routed, String group) {
        HttpServerResponse response = routed.call().response;
        routedHead(routed.admitted());
        if (!response.headWritten()) {
            response.putHeader(COST_HEADER, PythonFloats.repr(routed.charge().errorCost(group)));
        }
    }

    /**
     * A hit of the response cache, found under {@code key}: routed like any answer, costing
     * nothing, and replayed as it was answered (a stream as the stream it was, but to an
     * HTTP/1.0 caller, which takes it whole).
     */
    void fromCache(AdmittedCall admitted, String key, CachedAnswer hit) {
        HttpServerResponse response = admitted.call().response;
        routedHead(admitted);
        response.putHeader(CachedCalls.HIT_HEADER, key);
        response.putHeader(COST_HEADER, "0.0");
        response.putHeader("Content-Type", hit.contentType());
        if (hit.streamed() && !admitted.call().state.http10()) {
            response.setStatusCode(hit.status()).setChunked(true).putHeader("Cache-Control", "no-cache");
            response.end(Buffer.buffer(hit.body()));
        } else {
            Replies.raw(response, hit.status(), Buffer.buffer(hit.body()));
        }
    }

    /** The routed headers and the caller's limits, which every routed answer carries, errors and hits included. */
    private static void routedHead(AdmittedCall admitted) {
        ModelCall call = admitted.call();
        call.headers.apply(call.response);
        admitted.ticket().headers().forEach(call.response::putHeader);
    }

    private void servedHead(RoutedCall routed, Deployment deployment, MultiMap upstreamHeaders) {
        UpstreamHeaders.copy(KeyMask.of(providers, deployment).headers(upstreamHeaders), routed.call().response);
        routedHead(routed.admitted());
    }
}
