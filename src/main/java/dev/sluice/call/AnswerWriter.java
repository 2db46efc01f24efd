package dev.sluice.call;

import dev.sluice.config.Deployment;
import dev.sluice.http.Responses;
import dev.sluice.provider.Providers;
import dev.sluice.router.RouteOutcome;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes what routing served to the caller: the one place a whole answer and a stream's head
 * get their headers. Both carry the deployment's own headers (masked of its key, under
 * {@link UpstreamHeaders}' names), the routed {@code x-litellm-*} headers and the caller's
 * {@code x-ratelimit-*} limits. A whole answer then says its cost (and a key's spend with it)
 * before its body; a stream's cost is known only at its end, so its head announces the
 * trailer that says it. Shared by a pipeline's calls, on its event loop.
 */
final class AnswerWriter {
    private final Providers providers;

    AnswerWriter(Providers providers) {
        this.providers = providers;
    }

    /** A whole answer served by the outcome's last deployment, charged, headed and written. */
    void whole(ModelCall call, RouteOutcome<Answer> outcome, Answer.Whole whole) {
        HttpServerResponse response = call.response;
        servedHead(call, outcome.lastDeployment(), whole.upstreamHeaders());
        call.events.wholeAnswerWriting(whole);
        double cost = call.charge().served(response, outcome.lastGroup(), outcome.lastDeployment(), whole.status(), whole.usage(),
                whole.units());
        call.headers.charged(response, cost);
        if (whole.contentType() != null) {
            response.putHeader("Content-Type", whole.contentType());
        }
        Responses.raw(response, whole.status(), whole.body());
    }

    /** The head of a stream of {@code deployment}, just before it goes out with its first event. */
    void streamHead(ModelCall call, Deployment deployment, MultiMap upstreamHeaders) {
        servedHead(call, deployment, upstreamHeaders);
        call.charge().streamHead(call.response);
    }

    /** The routed headers and the caller's limits, which every routed answer carries, errors included. */
    void routedHead(ModelCall call) {
        call.headers.apply(call.response);
        call.charge().putLimitHeaders(call.response);
    }

    private void servedHead(ModelCall call, Deployment deployment, MultiMap upstreamHeaders) {
        UpstreamHeaders.copy(KeyMask.of(providers, deployment).headers(upstreamHeaders), call.response);
        routedHead(call);
    }
}
