package dev.sluice.edge;

import dev.sluice.admin.KeyAdminHandlers;
import dev.sluice.admin.ModelAdminHandlers;
import dev.sluice.admin.OwnerHandlers;
import dev.sluice.admin.RouterSettingsHandlers;
import dev.sluice.admin.SpendHandlers;
import dev.sluice.admin.TeamAdminHandlers;
import dev.sluice.admin.ui.UiEndpoints;
import dev.sluice.admin.ui.UiHeaders;
import dev.sluice.call.ModelCallPipeline;
import dev.sluice.http.CallIds;
import dev.sluice.http.Drain;
import dev.sluice.http.Replies;
import dev.sluice.ops.overload.HeapPressure;
import dev.sluice.ops.overload.Overload;
import dev.sluice.vendors.anthropic.entry.MessagesCodec;
import dev.sluice.vendors.entry.IngressCodec;
import dev.sluice.vendors.openai.entry.AudioFormCodec;
import dev.sluice.vendors.openai.entry.OpenAiCodec;
import dev.sluice.vendors.openai.responses.entry.ResponsesEndpoints;
import dev.sluice.wire.ApiError;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The route table: method and path to handler. An unknown path answers 404 and a known
 * path with the wrong method 405 (with {@code Allow}), both in OpenAI's error shape.
 */
public final class Routes implements Handler<HttpServerRequest> {

    /** The admin APIs; each is empty without a store, and its routes then say what they need. */
    public record Admin(Optional<ModelAdminHandlers> models, Optional<KeyAdminHandlers> keys, Optional<TeamAdminHandlers> teams,
            Optional<RouterSettingsHandlers> settings, Optional<OwnerHandlers> owners, Optional<SpendHandlers> spend,
            Optional<UiEndpoints> ui) {}

    /** A route's method, or null for a route that checks the method itself. */
    record Route(HttpMethod method, Handler<HttpServerRequest> handler) {}

    private static final java.util.List<String> RESPONSE_PREFIXES = java.util.List.of("/v1/responses/", "/responses/");
    /** {@code /v1/models/{model}}: one model group, by a name that may itself hold slashes. */
    private static final java.util.List<String> MODEL_PREFIXES = java.util.List.of("/v1/models/", "/models/");

    /** What still answers while the gateway drains: whether it is alive, that it is not ready, and its metrics. */
    private static final java.util.Set<String> WHILE_DRAINING = java.util.Set.of("/health/liveliness", "/health/liveness",
            "/metrics");

    private final Map<String, Route> byPath;
    private final Drain drain;
    private final Overload overload;
    private final ResponsesEndpoints responses;
    private final ModelLookupHandlers lookups;
    private final dev.sluice.accounts.Authenticator authenticator;
    private final Optional<UiEndpoints> ui;
    /** What a call id made here is dated by. */
    private final Clock clock;

    public Routes(ModelCallPipeline calls, InfoHandlers info, HealthHandlers health, Admin admin, Drain drain,
            ResponsesEndpoints responses) {
        this.drain = drain;
        this.clock = info.gateway().clock();
        this.overload = info.overload();
        this.responses = responses;
        this.lookups = new ModelLookupHandlers(info.gateway(), info.authenticator());
        this.authenticator = info.authenticator();
        this.ui = admin.ui();
        Optional<ModelAdminHandlers> modelApi = admin.models();
        Optional<KeyAdminHandlers> keyApi = admin.keys();
        Optional<TeamAdminHandlers> teamApi = admin.teams();
        Optional<RouterSettingsHandlers> settingsApi = admin.settings();
        Optional<OwnerHandlers> owners = admin.owners();
        Optional<SpendHandlers> spendApi = admin.spend();
        DataHandlers data = new DataHandlers(info.gateway(), info.gateway().live(), info.authenticator());
        Map<String, Route> routes = new java.util.HashMap<>(Map.ofEntries(
                Map.entry("/v1/messages", call(calls, MessagesCodec.MESSAGES)),
                Map.entry("/v1/messages/count_tokens", new Route(HttpMethod.POST,
                        r -> calls.countTokens(r, MessagesCodec.COUNT_TOKENS))),
                Map.entry("/v1/models", new Route(HttpMethod.GET, info::models)),
                Map.entry("/models", new Route(HttpMethod.GET, info::models)),
                Map.entry("/health", new Route(HttpMethod.GET, health::health)),
                Map.entry("/health/liveliness", new Route(HttpMethod.GET, info::liveliness)),
                Map.entry("/health/liveness", new Route(HttpMethod.GET, info::liveliness)),
                Map.entry("/health/readiness", new Route(HttpMethod.GET, info::readiness)),
                Map.entry("/metrics", new Route(HttpMethod.GET, info::metrics)),
                Map.entry("/model/new", post(modelApi.map(m -> m::add), "models")),
                Map.entry("/model/update", post(modelApi.map(m -> m::update), "models")),
                Map.entry("/model/delete", post(modelApi.map(m -> m::delete), "models")),
                Map.entry("/model/info", new Route(HttpMethod.GET, info::modelInfo)),
                Map.entry("/v1/model/info", new Route(HttpMethod.GET, info::modelInfo)),
                Map.entry("/key/generate", post(keyApi.map(k -> k::generate), "keys and teams")),
                Map.entry("/key/info", get(keyApi.map(k -> k::info), "keys and teams")),
                Map.entry("/key/update", post(keyApi.map(k -> k::update), "keys and teams")),
                Map.entry("/key/delete", post(keyApi.map(k -> k::delete), "keys and teams")),
                Map.entry("/key/list", get(keyApi.map(k -> k::list), "keys and teams")),
                Map.entry("/key/block", post(keyApi.map(k -> k::block), "keys and teams")),
                Map.entry("/key/unblock", post(keyApi.map(k -> k::unblock), "keys and teams")),
                Map.entry("/team/new", post(teamApi.map(t -> t::create), "keys and teams")),
                Map.entry("/team/info", get(teamApi.map(t -> t::info), "keys and teams")),
                Map.entry("/team/update", post(teamApi.map(t -> t::update), "keys and teams")),
                Map.entry("/team/delete", post(teamApi.map(t -> t::delete), "keys and teams")),
                Map.entry("/team/list", get(teamApi.map(t -> t::list), "keys and teams")),
                Map.entry("/router/settings", get(settingsApi.map(s -> s::get), "router settings")),
                Map.entry("/router/settings/update", post(settingsApi.map(s -> s::update), "router settings")),
                Map.entry("/model/state", new Route(HttpMethod.GET, data::modelState)),
                Map.entry("/calls/recent", new Route(HttpMethod.GET, data::recentCalls)),
                Map.entry("/model_group/info", new Route(HttpMethod.GET, lookups::modelGroupInfo)),
                Map.entry("/routes", new Route(HttpMethod.GET, this::routes)),
                Map.entry("/v2/rerank", call(calls, OpenAiCodec.RERANK)),
                Map.entry("/spend/logs", get(spendApi.map(s -> s::logs), "spend")),
                Map.entry("/global/spend/logs", get(spendApi.map(s -> s::globalLogs), "spend")),
                Map.entry("/global/spend/report", get(spendApi.map(s -> s::report), "spend")),
                Map.entry("/spend/calculate", post(spendApi.map(s -> s::calculate), "spend"))));
        // OpenAI's endpoints are served with and without the /v1 prefix, as LiteLLM serves them.
        Map.of("/chat/completions", OpenAiCodec.CHAT_COMPLETIONS, "/completions", OpenAiCodec.COMPLETIONS,
                "/embeddings", OpenAiCodec.EMBEDDINGS, "/responses", responses.codec(),
                "/images/generations", OpenAiCodec.IMAGE_GENERATIONS, "/audio/speech", OpenAiCodec.AUDIO_SPEECH,
                "/audio/transcriptions", AudioFormCodec.TRANSCRIPTIONS, "/audio/translations", AudioFormCodec.TRANSLATIONS,
                "/moderations", OpenAiCodec.MODERATIONS, "/rerank", OpenAiCodec.RERANK).forEach((path, codec) -> {
                    routes.put("/v1" + path, call(calls, codec));
                    routes.put(path, call(calls, codec));
                });
        routes.putAll(OwnerRoutes.of(owners));
        routes.putAll(UiRoutes.of(ui));
        this.byPath = Map.copyOf(routes);
    }

    /**
     * Without a store there is no master key either (a master key opens the embedded store):
     * the key, team, model and router settings routes then say what they need.
     */
    static Handler<HttpServerRequest> needsMasterKey(String managed) {
        return request -> {
            throw new ApiError(403, "permission_error",
                    "Managing " + managed + " needs a master key: set general_settings.master_key.", null, "master_key_required");
        };
    }

    /** A model call through the pipeline, decoded by {@code codec}. */
    private static Route call(ModelCallPipeline calls, IngressCodec codec) {
        return new Route(HttpMethod.POST, r -> calls.handle(r, codec));
    }

    private static Route post(Optional<Handler<HttpServerRequest>> handler, String managed) {
        return new Route(HttpMethod.POST, handler.orElse(needsMasterKey(managed)));
    }

    private static Route get(Optional<Handler<HttpServerRequest>> handler, String managed) {
        return new Route(HttpMethod.GET, handler.orElse(needsMasterKey(managed)));
    }

    /** {@code /v1/responses/{id}}: a kept response, read ({@code GET}) or deleted ({@code DELETE}). */
    private Route storedResponse(String path) {
        for (String prefix : RESPONSE_PREFIXES) {
            if (path.startsWith(prefix) && path.length() > prefix.length() && path.indexOf('/', prefix.length()) < 0) {
                String id = path.substring(prefix.length());
                return new Route(null, request -> {
                    if (request.method().equals(HttpMethod.GET)) {
                        responses.stored().get(request, id);
                    } else if (request.method().equals(HttpMethod.DELETE)) {
                        responses.stored().delete(request, id);
                    } else {
                        request.response().putHeader("Allow", "GET, DELETE");
                        throw new ApiError(405, "invalid_request_error", "Method " + request.method() + " is not allowed on "
                                + path + "; use GET or DELETE.", null, "method_not_allowed");
                    }
                });
            }
        }
        return null;
    }

    /** {@code /v1/models/{model}}: OpenAI's model object for one group. */
    private Route oneModel(String path) {
        for (String prefix : MODEL_PREFIXES) {
            if (path.startsWith(prefix) && path.length() > prefix.length()) {
                String model = RouteList.decoded(path.substring(prefix.length()));
                if (model == null) {
                    return new Route(HttpMethod.GET, request -> {
                        throw new ApiError(400, "invalid_request_error", "The model name in " + request.path()
                                + " is not valid percent-encoding.", "model", "invalid_model_name");
                    });
                }
                return new Route(HttpMethod.GET, request -> lookups.model(request, model));
            }
        }
        return null;
    }

    /** {@code GET /routes}: every route this table answers, as LiteLLM lists its app's routes. */
    private void routes(HttpServerRequest request) {
        RouteList list = new RouteList();
        // The only routes of the table that check their methods themselves are the UI's.
        byPath.forEach((path, route) -> list.add(path, route.method() == null ? UiRoutes.methods(path)
                : java.util.List.of(route.method())));
        RESPONSE_PREFIXES.forEach(prefix -> list.add(prefix + "{response_id}", java.util.List.of(HttpMethod.GET, HttpMethod.DELETE)));
        MODEL_PREFIXES.forEach(prefix -> list.add(prefix + "{model}", java.util.List.of(HttpMethod.GET)));
        authenticator.withCaller(request, caller -> Replies.json(request.response(), 200, list.json()));
    }

    @Override
    public void handle(HttpServerRequest request) {
        String path = request.path();
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        Route route = byPath.containsKey(path) ? byPath.get(path) : storedResponse(path);
        if (route == null) {
            route = oneModel(path);
        }
        if (route == null) {
            route = UiRoutes.under(ui, path);
        }
        request.response().putHeader(CallIds.HEADER, CallIds.of(request, clock));
        if (UiHeaders.isUiPath(path)) {
            UiHeaders.apply(request.response());
        }
        try {
            if (overload.shedding() && !WHILE_DRAINING.contains(path)) {
                // The heap is too full for more work: probes and metrics still answer, readiness
                // says not ready so balancers send calls elsewhere, and nothing else is taken on.
                throw HeapPressure.refusal();
            }
            if (drain.draining() && !WHILE_DRAINING.contains(path)) {
                // Readiness fails, and a call that still reaches this replica (on a connection
                // opened before the stop) is sent elsewhere, with its connection closed.
                throw path.equals("/health/readiness") ? Drain.notReady() : Drain.refusal();
            }
            if (route == null) {
                throw new ApiError(404, "invalid_request_error",
                        "Unknown route: " + request.method() + " " + request.path() + ".", null, "unknown_route");
            }
            if (route.method() != null && !route.method().equals(request.method())) {
                request.response().putHeader("Allow", route.method().name());
                throw new ApiError(405, "invalid_request_error",
                        "Method " + request.method() + " is not allowed on " + path + "; use " + route.method() + ".",
                        null, "method_not_allowed");
            }
            route.handler().handle(request);
        } catch (ApiError e) {
            Replies.error(request.response(), e);
        } catch (RuntimeException e) {
            Replies.internalError(request.response(), request.path(), e);
        }
    }
}
