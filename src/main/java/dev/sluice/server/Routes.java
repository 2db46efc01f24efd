package dev.sluice.server;

import dev.sluice.api.ApiError;
import dev.sluice.provider.Endpoint;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;

/**
 * The route table: method and path to handler. An unknown path answers 404 and a known
 * path with the wrong method 405 (with {@code Allow}), both in OpenAI's error shape.
 */
final class Routes implements Handler<HttpServerRequest> {

    private record Route(HttpMethod method, Handler<HttpServerRequest> handler) {}

    private final Map<String, Route> byPath;

    Routes(ModelCallPipeline calls, InfoHandlers info, ModelAdminHandlers models) {
        Handler<HttpServerRequest> chat = r -> calls.handle(r, Endpoint.CHAT_COMPLETIONS);
        Handler<HttpServerRequest> completions = r -> calls.handle(r, Endpoint.COMPLETIONS);
        Handler<HttpServerRequest> embeddings = r -> calls.handle(r, Endpoint.EMBEDDINGS);
        this.byPath = Map.ofEntries(
                Map.entry("/v1/chat/completions", new Route(HttpMethod.POST, chat)),
                Map.entry("/chat/completions", new Route(HttpMethod.POST, chat)),
                Map.entry("/v1/completions", new Route(HttpMethod.POST, completions)),
                Map.entry("/completions", new Route(HttpMethod.POST, completions)),
                Map.entry("/v1/embeddings", new Route(HttpMethod.POST, embeddings)),
                Map.entry("/embeddings", new Route(HttpMethod.POST, embeddings)),
                Map.entry("/v1/models", new Route(HttpMethod.GET, info::models)),
                Map.entry("/models", new Route(HttpMethod.GET, info::models)),
                Map.entry("/health/liveliness", new Route(HttpMethod.GET, info::liveliness)),
                Map.entry("/health/liveness", new Route(HttpMethod.GET, info::liveliness)),
                Map.entry("/health/readiness", new Route(HttpMethod.GET, info::readiness)),
                Map.entry("/model/new", new Route(HttpMethod.POST, models::add)));
    }

    @Override
    public void handle(HttpServerRequest request) {
        String path = request.path();
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        Route route = byPath.get(path);
        request.response().putHeader(CallIds.HEADER, CallIds.of(request));
        try {
            if (route == null) {
                throw new ApiError(404, "invalid_request_error",
                        "Unknown route: " + request.method() + " " + request.path() + ".", null, "unknown_route");
            }
            if (!route.method().equals(request.method())) {
                request.response().putHeader("Allow", route.method().name());
                throw new ApiError(405, "invalid_request_error",
                        "Method " + request.method() + " is not allowed on " + path + "; use " + route.method() + ".",
                        null, "method_not_allowed");
            }
            route.handler().handle(request);
        } catch (ApiError e) {
            Responses.error(request.response(), e);
        } catch (RuntimeException e) {
            Responses.internalError(request.response(), request.path(), e);
        }
    }
}
