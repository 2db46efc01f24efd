package dev.sluice.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ApiError;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.json.Json;
import dev.sluice.provider.Providers;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adding deployments while the gateway runs: {@code POST /model/new} with LiteLLM's body
 * ({@code model_name}, {@code litellm_params}, {@code model_info}), checked by the same rules
 * as the config file. The deployment takes traffic from the next request on. Master key
 * only: without one configured, models cannot be managed at all. Added deployments are kept
 * in memory, until the process stops.
 */
final class ModelAdminHandlers {
    private static final Logger log = LoggerFactory.getLogger(ModelAdminHandlers.class);

    private final Gateway gateway;
    private final RequestBodyReader bodies;
    private final Authenticator authenticator;

    ModelAdminHandlers(Vertx vertx, Gateway gateway, Authenticator authenticator) {
        this.gateway = gateway;
        this.authenticator = authenticator;
        this.bodies = new RequestBodyReader(vertx, gateway.config().general().maxRequestBytes(), gateway.nanoTime());
    }

    void add(HttpServerRequest request) {
        if (!gateway.access().required()) {
            throw new ApiError(403, "permission_error",
                    "Managing models needs a master key: set general_settings.master_key.", null, "master_key_required");
        }
        authenticator.caller(request).transform(who -> {
            Future<Buffer> body = who.failed() ? Future.failedFuture(who.cause())
                    : who.result().isAdmin() ? bodies.read(request)
                    : Future.failedFuture(new ApiError(403, "permission_error",
                            "Only the master key may add models; this key may not.", null, "permission_error"));
            request.resume();
            return body;
        }).onComplete(read -> {
            try {
                if (read.failed()) {
                    throw read.cause();
                }
                added(request, read.result().getBytes());
            } catch (ApiError e) {
                Responses.error(request.response(), e);
            } catch (Throwable t) {
                Responses.internalError(request.response(), "model_new", t);
            }
        });
    }

    private void added(HttpServerRequest request, byte[] bytes) {
        JsonNode entry;
        try {
            entry = Json.parse(bytes);
        } catch (JsonProcessingException e) {
            throw ApiError.invalidRequest("We could not parse the JSON body of your request: " + CallRequest.describe(e), null, "invalid_json");
        } catch (IOException e) {
            throw ApiError.invalidRequest("We could not parse the JSON body of your request: " + e.getMessage(), null, "invalid_json");
        }
        if (!(entry instanceof ObjectNode)) {
            throw ApiError.invalidRequest("The body must be a JSON object with model_name and litellm_params.", null, "invalid_type");
        }
        ConfigLoader.AddedDeployment added;
        try {
            added = ConfigLoader.parseDeployment(entry, gateway.env(), Providers.knownPrefixes(), gateway.guardrails().names());
        } catch (ConfigException e) {
            throw ApiError.invalidRequest("The model is not valid: " + String.join("; ", unprefixed(e.problems())), null, "invalid_model");
        }
        Deployment deployment = added.deployment();
        List<String> misconfigured = gateway.providers().misconfigurations(List.of(deployment));
        if (!misconfigured.isEmpty()) {
            throw ApiError.invalidRequest("The model is not valid: " + String.join("; ", unprefixed(misconfigured)), null, "invalid_model");
        }
        try {
            gateway.models().add(deployment);
        } catch (IllegalArgumentException e) {
            throw new ApiError(409, "invalid_request_error", "The model is not added: " + e.getMessage() + ".", "model_info.id",
                    "duplicate_model_id");
        }
        log.info("models.deployment_added group={} deployment={} provider={}", deployment.modelName(), deployment.id(),
                deployment.params().provider());
        ObjectNode body = Json.MAPPER.createObjectNode()
                .put("model_id", deployment.id())
                .put("model_name", deployment.modelName())
                .put("message", "Model '" + deployment.modelName() + "' (deployment '" + deployment.id()
                        + "') is served from the next request on; it is kept until the gateway stops.");
        body.putArray("ignored_keys").addAll(added.ignoredKeys().stream().map(k -> Json.MAPPER.getNodeFactory().textNode(unprefix(k))).toList());
        Responses.json(request.response(), 200, Json.buffer(body));
    }

    private static List<String> unprefixed(List<String> problems) {
        return problems.stream().map(ModelAdminHandlers::unprefix).toList();
    }

    private static String unprefix(String problem) {
        return problem.startsWith("model_list[0].") ? problem.substring("model_list[0].".length()) : problem;
    }
}
