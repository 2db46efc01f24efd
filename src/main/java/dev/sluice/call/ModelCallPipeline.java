package dev.sluice.call;

import dev.sluice.http.Authenticator;
import dev.sluice.http.CallIds;
import dev.sluice.server.CallerOverridesReader;
import dev.sluice.server.Gateway;
import dev.sluice.http.RequestBodyReader;
import dev.sluice.http.Responses;
import dev.sluice.access.CallEnd;
import dev.sluice.access.CallTicket;
import dev.sluice.access.Caller;
import dev.sluice.api.ApiError;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.router.FallbackGate;
import dev.sluice.store.Team;
import io.vertx.core.buffer.Buffer;
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
public final class ModelCallPipeline {
    private static final Logger log = LoggerFactory.getLogger(ModelCallPipeline.class);

    private final Gateway gateway;
    private final UpstreamClient upstreams;
    private final RequestBodyReader bodies;
    private final CallerOverridesReader overrides;
    private final RoutedErrors errors;
    private final Delays delays;
    private final RequestFactsReader facts;
    private final Authenticator authenticator;

    public ModelCallPipeline(Vertx vertx, Gateway gateway, UpstreamClient upstreams, Authenticator authenticator) {
        this.gateway = gateway;
        this.authenticator = authenticator;
        this.upstreams = upstreams;
        this.bodies = new RequestBodyReader(vertx, gateway.config().general().maxRequestBytes(), gateway.nanoTime());
        this.overrides = new CallerOverridesReader(gateway.router().settings()::current, gateway.models());
        this.errors = new RoutedErrors(gateway.providers());
        this.delays = Delays.on(vertx);
        this.facts = new RequestFactsReader(vertx, gateway.router().settings()::current);
    }

    public void handle(HttpServerRequest request, Endpoint endpoint) {
        HttpServerResponse response = request.response();
        CallState call = new CallState(request.version() == HttpVersion.HTTP_1_0);
        String route = endpoint.name().toLowerCase(java.util.Locale.ROOT);
        RoutedHeaders headers = new RoutedHeaders(gateway.nanoTime(), overhead -> gateway.metrics().overhead(route, overhead));
        RequestMeter meter = new RequestMeter(gateway.metrics(), gateway.tracing(), route, request.path(),
                response.headers().get(CallIds.HEADER), request::getHeader, gateway.nanoTime());
        // A connection closed before the answer ended also ends the response, still reading 200: the caller left.
        response.endHandler(v -> meter.ended(response.ended() ? response.getStatusCode() : CallEnd.CLIENT_CLOSED));
        response.closeHandler(v -> {
            call.onClientGone();
            meter.ended(CallEnd.CLIENT_CLOSED); // only when the answer had not ended: the caller left first
        });

        authenticator.caller(request)
                .transform(who -> {
                    // Authentication may have paused the request to read the store: its body waits until read here.
                    Future<Buffer> body = who.succeeded() ? bodies.read(request) : Future.failedFuture(who.cause());
                    request.resume();
                    return body.compose(bytes -> route(who.result(), CallRequest.parse(endpoint, bytes), bytes.length(), request,
                            call, response, headers));
                })
                .onFailure(t -> fail(response, t));
    }

    private Future<Void> route(Caller who, CallRequest parsed, int bodyBytes, HttpServerRequest request, CallState call,
            HttpServerResponse response, RoutedHeaders headers) {
        ModelGroup group = gateway.models().current().find(parsed.group()).orElseThrow(() -> unknownGroup(parsed.group()));
        CallerOverrides caller = withTeamSettings(who, overrides.read(parsed.body(), request.headers(), group.name()), group);
        List<String> guardrails = RequestedGuardrails.read(parsed.body(), gateway.guardrails());
        return gateway.access().admit(who, group.name(), CallIds.spendRowId(request, response.headers().get(CallIds.HEADER)))
                .compose(ticket -> admitted(who, parsed, group, caller, guardrails, bodyBytes, call, response, headers, ticket));
    }

    private Future<Void> admitted(Caller who, CallRequest parsed, ModelGroup group, CallerOverrides caller, List<String> guardrails,
            int bodyBytes, CallState call, HttpServerResponse response, RoutedHeaders headers, CallTicket ticket) {
        // From here on the ticket must be finished however the call ends: even a synchronous
        // throw becomes a failed future that the handler below sees.
        return Future.<Void>succeededFuture()
                .compose(v -> facts.read(parsed, group, caller.routingStrategy(), bodyBytes))
                .compose(read -> route(who, parsed, group, caller, guardrails, read, call, response, headers,
                        new CallCharge(ticket, parsed, read.facts(), bodyBytes)))
                .andThen(done -> {
                    // Whatever ended the call before an answer was accounted (a fault, the caller leaving) ends its ticket.
                    if (done.failed()) {
                        ticket.finish(CallEnd.unserved(group.name(), call.clientGone() ? CallEnd.CLIENT_CLOSED
                                : done.cause() instanceof ApiError e ? e.status() : 500));
                    }
                });
    }

    /** The request's own routing overrides over those of the caller's team, when it has any. */
    private CallerOverrides withTeamSettings(Caller who, CallerOverrides requested, ModelGroup group) {
        if (who instanceof Caller.Keyed keyed && keyed.team().isPresent()) {
            Team team = keyed.team().get();
            return requested.over(overrides.readTeam(team.teamId(), team.routerSettings(), group.name()));
        }
        return requested;
    }

    private Future<Void> route(Caller who, CallRequest parsed, ModelGroup group, CallerOverrides caller, List<String> guardrails,
            RequestFactsReader.Read read, CallState call, HttpServerResponse response, RoutedHeaders headers, CallCharge charge) {
        DeploymentCall calls = new DeploymentCall(gateway, upstreams, parsed, call, response, headers, guardrails, read.facts(),
                charge);
        String callId = response.headers().get(CallIds.HEADER);
        FallbackGate gate = gateway.access().fallbackGate(who, parsed.body(),
                charge.promptTokensWith(TokenEncoding.forDeployments(group.deployments())));
        // A wait before a retry is the upstream's doing, not Sluice's overhead.
        Delays timed = wait -> {
            headers.upstreamTook(wait.toNanos());
            return delays.after(wait);
        };
        return gateway.router().route(callId, group, caller, read.facts(), calls, timed, call::clientGone, gate)
                .compose(outcome -> {
                    if (outcome.served().isPresent() && outcome.lastGroup().equals(group.name())) {
                        // The deployment now holds this conversation's prefix in its provider's cache.
                        gateway.router().preCallChecks().served(outcome.lastDeployment(), read.cacheKeys());
                    }
                    return answer(outcome, calls, response, headers, charge, group.name());
                });
    }

    private Future<Void> answer(RouteOutcome<Answer> outcome, DeploymentCall calls, HttpServerResponse response,
            RoutedHeaders headers, CallCharge charge, String requested) {
        if (outcome.cancelled()) {
            charge.unserved(requested, CallEnd.CLIENT_CLOSED);
            return Future.succeededFuture();
        }
        if (outcome.served().isEmpty()) {
            headers.ended(outcome);
            headers.apply(response);
            charge.putLimitHeaders(response);
            charge.putErrorCost(response, requested);
            errors.answer(response, outcome, outcome.failure().orElseThrow(), calls);
            charge.unserved(outcome.lastGroup() == null ? requested : outcome.lastGroup(), response.getStatusCode());
            return Future.succeededFuture();
        }
        return switch (outcome.served().get()) {
            case Answer.Streaming streaming -> streaming.relay().finished().mapEmpty();
            case Answer.Whole whole -> {
                headers.ended(outcome);
                UpstreamHeaders.copy(whole.upstreamHeaders(), response);
                headers.apply(response);
                charge.putLimitHeaders(response);
                charge.served(response, outcome.lastGroup(), outcome.lastDeployment(), whole.status(), whole.usage());
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
        if (!response.headWritten()) {
            response.putHeader(CallCharge.COST_HEADER, "0.0"); // nothing was served
        }
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
