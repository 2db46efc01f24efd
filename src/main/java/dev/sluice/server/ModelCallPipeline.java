package dev.sluice.server;

import dev.sluice.api.ApiError;
import dev.sluice.config.Deployment;
import dev.sluice.json.Json;
import dev.sluice.provider.Endpoint;
import dev.sluice.provider.ForwardedBody;
import dev.sluice.provider.Provider;
import dev.sluice.provider.UpstreamRequest;
import dev.sluice.router.ModelGroup;
import dev.sluice.upstream.UpstreamClient;
import dev.sluice.upstream.UpstreamExchange;
import dev.sluice.upstream.UpstreamFailure;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The path of a model call, in order: authenticate, read the body within its limit, parse
 * and check it, pick the group and a deployment, call the deployment, answer (whole or
 * streamed). One instance per event loop.
 */
final class ModelCallPipeline {
    private static final Logger log = LoggerFactory.getLogger(ModelCallPipeline.class);

    private final Gateway gateway;
    private final UpstreamClient upstreams;
    private final RequestBodyReader bodies;

    ModelCallPipeline(Vertx vertx, Gateway gateway, UpstreamClient upstreams) {
        this.gateway = gateway;
        this.upstreams = upstreams;
        this.bodies = new RequestBodyReader(vertx, gateway.config().general().maxRequestBytes(), gateway.nanoTime());
    }

    void handle(HttpServerRequest request, Endpoint endpoint) {
        HttpServerResponse response = request.response();
        CallState call = new CallState(request.version() == HttpVersion.HTTP_1_0);
        response.closeHandler(v -> call.onClientGone());

        Future.succeededFuture()
                .map(v -> authenticate(request))
                .compose(v -> bodies.read(request))
                .map(bytes -> CallRequest.parse(endpoint, bytes))
                .map(this::route)
                .compose(routed -> dispatch(routed, call, response))
                .onFailure(t -> fail(response, t));
    }

    private Void authenticate(HttpServerRequest request) {
        gateway.authenticator().check(request);
        return null;
    }

    private Routed route(CallRequest call) {
        ModelGroup group = gateway.groups().find(call.group()).orElseThrow(() -> unknownGroup(call.group()));
        return new Routed(call, group, gateway.picker().pick(group.deployments()));
    }

    private Future<Void> dispatch(Routed routed, CallState call, HttpServerResponse response) {
        Deployment deployment = routed.deployment();
        Provider provider = gateway.providers().forDeployment(deployment);
        UpstreamRequest upstreamRequest = provider.request(deployment, routed.call().endpoint(),
                ForwardedBody.of(routed.call().body(), deployment.params().providerModel()));
        RoutedHeaders.apply(response, routed.group().name(), deployment.id(), 0);
        UpstreamExchange exchange = upstreams.open(upstreamRequest, Deadlines.attempt(gateway.config().router(), deployment));
        call.opened(exchange);
        return exchange.answered()
                .transform(answered -> {
                    if (call.clientGone()) {
                        exchange.cancel();
                        return Future.succeededFuture();
                    }
                    if (answered.failed()) {
                        return Future.failedFuture(unreachable(routed, exchange.failure(answered.cause())));
                    }
                    return answer(routed, provider, exchange, call, response);
                });
    }

    private Future<Void> answer(Routed routed, Provider provider, UpstreamExchange exchange, CallState call, HttpServerResponse response) {
        int status = exchange.status();
        boolean success = status >= 200 && status < 300;
        if (success && routed.call().stream() && isEventStream(exchange) && !call.http10()) {
            StreamRelay relay = new StreamRelay(response, exchange,
                    Deadlines.betweenChunks(gateway.config().router(), routed.deployment()), routed.describe());
            call.relaying(relay);
            try {
                return relay.start().mapEmpty();
            } catch (RuntimeException e) {
                exchange.cancel();
                throw e;
            }
        }
        return exchange.body()
                .recover(t -> Future.failedFuture(unreachable(routed, exchange.failure(t))))
                .map(body -> {
                    if (status >= 300 && status < 400) {
                        throw new ApiError(502, "server_error", "Sluice: " + routed.describe() + " answered " + status
                                + " redirecting to " + exchange.headers().get("Location")
                                + "; check its api_base (Sluice does not follow redirects).", null, "upstream_redirect");
                    }
                    UpstreamHeaders.copy(exchange.headers(), response);
                    if (!success) {
                        Responses.json(response, status, Json.buffer(provider.normaliseError(status, body)));
                        return null;
                    }
                    if (routed.call().stream() && isEventStream(exchange)) {
                        // An HTTP/1.0 caller cannot take a chunked stream: it gets the events
                        // whole, with their length, once the upstream has finished.
                        response.putHeader("Content-Type", exchange.headers().get("Content-Type"));
                        Responses.raw(response, status, body);
                        return null;
                    }
                    Optional<Buffer> shaped = provider.normaliseSuccess(body);
                    if (shaped.isEmpty()) {
                        throw new ApiError(502, "server_error",
                                "Sluice: " + routed.describe() + " answered " + status + " with a body that is not a JSON object.",
                                null, "invalid_upstream_response");
                    }
                    Responses.json(response, status, shaped.get());
                    return null;
                });
    }

    private static boolean isEventStream(UpstreamExchange exchange) {
        String type = exchange.headers().get("Content-Type");
        return type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17);
    }

    private ApiError unknownGroup(String name) {
        return ApiError.invalidRequest("Invalid model name passed in model=" + name
                + ". Model groups you may use: " + String.join(", ", gateway.groups().names()) + ".", "model", "model_not_found");
    }

    /** The answer for a deployment that gave no HTTP answer: 408 for a timeout, else 502. */
    private static ApiError unreachable(Routed routed, UpstreamFailure failure) {
        log.warn("dispatch.transport_error group={} deployment={} kind={} cause=\"{}\"",
                routed.group().name(), routed.deployment().id(), failure.kind(), failure.getMessage());
        if (failure.kind() == UpstreamFailure.Kind.TIMEOUT) {
            return new ApiError(408, "timeout_error",
                    "Sluice: " + routed.describe() + " timed out: " + failure.getMessage() + ".", null, "upstream_timeout");
        }
        return new ApiError(502, "server_error",
                "Sluice: " + routed.describe() + " could not be reached: " + failure.getMessage() + ".", null, "upstream_unreachable");
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

    /** A call with its group and the deployment picked for it. */
    record Routed(CallRequest call, ModelGroup group, Deployment deployment) {
        String describe() {
            return "deployment '" + deployment.id() + "' of model group '" + group.name() + "'";
        }
    }
}
