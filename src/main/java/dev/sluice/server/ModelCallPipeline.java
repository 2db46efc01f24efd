package dev.sluice.server;

import dev.sluice.api.ApiError;
import dev.sluice.provider.Endpoint;
import dev.sluice.router.CallerOverrides;
import dev.sluice.router.Delays;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.RouteOutcome;
import dev.sluice.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The path of a model call, in order: authenticate, read the body within its limit, parse
 * and check it, find the group and read the caller's routing overrides, route (attempts,
 * retries, sibling failover, fallbacks: {@link dev.sluice.router.Router}, each attempt made
 * by {@link DeploymentCall}), then answer: the served answer, or the error routing ended
 * with. One instance per event loop.
 */
final class ModelCallPipeline {
    private static final Logger log = LoggerFactory.getLogger(ModelCallPipeline.class);

    private final Gateway gateway;
    private final UpstreamClient upstreams;
    private final RequestBodyReader bodies;
    private final CallerOverridesReader overrides;
    private final RoutedErrors errors;
    private final Delays delays;
    private final RequestFactsReader facts;

    ModelCallPipeline(Vertx vertx, Gateway gateway, UpstreamClient upstreams) {
        this.gateway = gateway;
        this.upstreams = upstreams;
        this.bodies = new RequestBodyReader(vertx, gateway.config().general().maxRequestBytes(), gateway.nanoTime());
        this.overrides = new CallerOverridesReader(gateway.config().router(), gateway.models());
        this.errors = new RoutedErrors(gateway.providers());
        this.delays = Delays.on(vertx);
        this.facts = new RequestFactsReader(vertx, gateway.config().router());
    }

    void handle(HttpServerRequest request, Endpoint endpoint) {
        HttpServerResponse response = request.response();
        CallState call = new CallState(request.version() == HttpVersion.HTTP_1_0);
        RoutedHeaders headers = new RoutedHeaders(gateway.nanoTime());
        response.closeHandler(v -> call.onClientGone());

        Future.succeededFuture()
                .map(v -> authenticate(request))
                .compose(v -> bodies.read(request))
                .compose(bytes -> route(CallRequest.parse(endpoint, bytes), bytes.length(), request, call, response, headers))
                .onFailure(t -> fail(response, t));
    }

    private Void authenticate(HttpServerRequest request) {
        gateway.authenticator().check(request);
        return null;
    }

    private Future<Void> route(CallRequest parsed, int bodyBytes, HttpServerRequest request, CallState call,
            HttpServerResponse response, RoutedHeaders headers) {
        ModelGroup group = gateway.models().current().find(parsed.group()).orElseThrow(() -> unknownGroup(parsed.group()));
        CallerOverrides caller = overrides.read(parsed.body(), request.headers(), group.name());
        List<String> guardrails = RequestedGuardrails.read(parsed.body(), gateway.guardrails());
        return facts.read(parsed, group, caller.routingStrategy(), bodyBytes)
                .compose(read -> route(parsed, group, caller, guardrails, read, call, response, headers));
    }

    private Future<Void> route(CallRequest parsed, ModelGroup group, CallerOverrides caller, List<String> guardrails,
            RequestFactsReader.Read read, CallState call, HttpServerResponse response, RoutedHeaders headers) {
        DeploymentCall calls = new DeploymentCall(gateway, upstreams, parsed, call, response, headers, guardrails, read.facts());
        String callId = response.headers().get(CallIds.HEADER);
        // A wait before a retry is the upstream's doing, not Sluice's overhead.
        Delays timed = wait -> {
            headers.upstreamTook(wait.toNanos());
            return delays.after(wait);
        };
        return gateway.router().route(callId, group, caller, read.facts(), calls, timed, call::clientGone)
                .compose(outcome -> {
                    if (outcome.served().isPresent() && outcome.lastGroup().equals(group.name())) {
                        // The deployment now holds this conversation's prefix in its provider's cache.
                        gateway.router().preCallChecks().served(outcome.lastDeployment(), read.cacheKeys());
                    }
                    return answer(outcome, calls, response, headers);
                });
    }

    private Future<Void> answer(RouteOutcome<Answer> outcome, DeploymentCall calls, HttpServerResponse response,
            RoutedHeaders headers) {
        if (outcome.cancelled()) {
            return Future.succeededFuture();
        }
        if (outcome.served().isEmpty()) {
            headers.ended(outcome);
            headers.apply(response);
            errors.answer(response, outcome, outcome.failure().orElseThrow(), calls);
            return Future.succeededFuture();
        }
        return switch (outcome.served().get()) {
            case Answer.Streaming streaming -> streaming.relay().finished().mapEmpty();
            case Answer.Whole whole -> {
                headers.ended(outcome);
                UpstreamHeaders.copy(whole.upstreamHeaders(), response);
                headers.apply(response);
                if (whole.contentType() != null) {
                    response.putHeader("Content-Type", whole.contentType());
                }
                Responses.raw(response, whole.status(), whole.body());
                yield Future.succeededFuture();
            }
        };
    }

    private ApiError unknownGroup(String name) {
        return ApiError.invalidRequest("Invalid model name passed in model=" + name
                + ". Model groups you may use: " + String.join(", ", gateway.models().current().names()) + ".", "model", "model_not_found");
    }

    private static void fail(HttpServerResponse response, Throwable t) {
        if (t instanceof ApiError error) {
            Responses.error(response, error);
            return;
        }
        if (response.closed() || t instanceof HttpClosedException) {
            log.debug("request.client_gone call_id={}", response.headers().get(CallIds.HEADER));
            return;
        }
        Responses.internalError(response, "model_call", t);
    }
}
