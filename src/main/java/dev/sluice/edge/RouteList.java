package dev.sluice.edge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The body of {@code GET /routes}: {@code {"routes": [{path, methods, name, endpoint}]}}, as
 * LiteLLM lists its app's routes, sorted by path. LiteLLM's {@code name} and {@code endpoint}
 * are its Python handlers' names; Sluice's are the path with its slashes as underscores
 * ({@code v1_chat_completions}), the same in both fields.
 */
final class RouteList {
    private final Map<String, List<HttpMethod>> byPath = new TreeMap<>();

    void add(String path, List<HttpMethod> methods) {
        byPath.put(path, methods);
    }

    Buffer json() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ArrayNode routes = f.arrayNode();
        byPath.forEach((path, methods) -> {
            String name = path.substring(1).replace('/', '_').replace("{", "").replace("}", "");
            ObjectNode route = routes.addObject().put("path", path);
            ArrayNode names = route.putArray("methods");
            methods.forEach(method -> names.add(method.name()));
            route.put("name", name).put("endpoint", name);
        });
        ObjectNode body = f.objectNode();
        body.set("routes", routes);
        return Json.buffer(body);
    }

    /** A path segment with its percent escapes decoded (a {@code +} stays a plus, as in any path); null when they are broken. */
    static String decoded(String segment) {
        try {
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException broken) {
            return null;
        }
    }
}
