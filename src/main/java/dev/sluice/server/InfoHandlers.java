package dev.sluice.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.json.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

/** The answers that involve no upstream: the model list and the probes of the gateway itself. */
final class InfoHandlers {
    private static final Buffer ALIVE = Buffer.buffer("\"I'm alive!\"");

    private final Gateway gateway;

    InfoHandlers(Gateway gateway) {
        this.gateway = gateway;
    }

    /** {@code GET /v1/models}: the groups the caller may use, in OpenAI's list shape. */
    void models(HttpServerRequest request) {
        gateway.authenticator().check(request);
        JsonNodeFactory f = JsonNodeFactory.instance;
        ArrayNode data = f.arrayNode();
        for (String name : gateway.models().current().names()) {
            data.addObject()
                    .put("id", name)
                    .put("object", "model")
                    .put("created", gateway.startedEpochSecond())
                    .put("owned_by", "sluice");
        }
        ObjectNode list = f.objectNode().put("object", "list");
        list.set("data", data);
        Responses.json(request.response(), 200, Json.buffer(list));
    }

    /** {@code GET /health/liveliness}: the process answers; nothing else is checked. */
    void liveliness(HttpServerRequest request) {
        Responses.json(request.response(), 200, ALIVE);
    }

    /** {@code GET /health/readiness}: ready to serve, and the state of each store. */
    void readiness(HttpServerRequest request) {
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("status", "healthy")
                .put("db", gateway.config().general().databaseUrl().isPresent() ? "configured, not used yet" : "not configured")
                .put("router_state", "in-memory")
                .put("model_groups", gateway.models().current().names().size())
                .put("deployments", gateway.models().deployments().size());
        Responses.json(request.response(), 200, Json.buffer(body));
    }
}
