package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.wire.ApiError;
import java.util.HashMap;
import java.util.Map;

/**
 * The request each fallback group gets when the caller's {@code fallbacks} name it with an
 * object: {@code {"model": "gpt-4o", "messages": [...]}} falls back to {@code gpt-4o} with the
 * object's other fields laid over the request's top-level fields, as LiteLLM updates the
 * call's arguments with them. A group named by a plain string, or by an object with only a
 * {@code model}, gets the request as the caller sent it.
 *
 * <p>LiteLLM keeps an object's changes for the fallbacks after it in the same list (it updates
 * one set of arguments in place); Sluice gives each object's changes to its own group only,
 * so the order of the list does not change what a later group receives.
 *
 * <p>The list's shape was checked with the other routing overrides before this reads it. The
 * changes are taken on OpenAI's entry points only (another entry API's body is not in the form
 * its fields would be written in), and may not turn a stream into a whole answer or back.
 */
final class FallbackRequests {
    private static final String OVERRIDE = "router_settings_override";

    private final Map<String, ModelRequest> byGroup;

    private FallbackRequests(Map<String, ModelRequest> byGroup) {
        this.byGroup = byGroup;
    }

    static final FallbackRequests NONE = new FallbackRequests(Map.of());

    /** The fallback objects of {@code request}'s body (its {@code router_settings_override}'s first). */
    static FallbackRequests of(ModelRequest request) {
        ObjectNode body = request.body();
        JsonNode override = body.get(OVERRIDE);
        String path = "fallbacks";
        JsonNode list = body.get(path);
        if (override instanceof ObjectNode overrides && overrides.hasNonNull(path)) {
            list = overrides.get(path);
            path = OVERRIDE + "." + path;
        }
        if (list == null || !list.isArray()) {
            return NONE;
        }
        Map<String, ModelRequest> byGroup = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) instanceof ObjectNode item && item.size() > 1 && item.path("model").isTextual()) {
                String at = path + "[" + i + "]";
                String group = item.get("model").asText();
                if (byGroup.containsKey(group)) {
                    throw ApiError.invalidRequest("Invalid '" + at + "': " + group + " is given its own request twice"
                            + " (expected: one object for each fallback group).", at, "invalid_fallbacks");
                }
                byGroup.put(group, changed(request, item, at));
            }
        }
        return byGroup.isEmpty() ? NONE : new FallbackRequests(Map.copyOf(byGroup));
    }

    /**
     * The request a fallback named {@code target} sends (the name as written in the list, not
     * the wildcard pattern or alias target that serves it): its own when the caller gave it one,
     * else {@code request}.
     */
    ModelRequest forGroup(String target, ModelRequest request) {
        return byGroup.getOrDefault(target, request);
    }

    private static ModelRequest changed(ModelRequest request, ObjectNode item, String at) {
        if (request.dialect() != Dialect.OPENAI) {
            throw ApiError.invalidRequest("Invalid '" + at + "': a fallback object may change the request only on OpenAI's"
                    + " endpoints (/v1/chat/completions, /v1/completions, /v1/embeddings); here write only its model.",
                    at, "invalid_fallbacks");
        }
        JsonNode stream = item.get("stream");
        if (stream != null && stream.asBoolean(false) != request.stream()) {
            throw ApiError.invalidRequest("Invalid '" + at + ".stream': " + stream + " (expected: as the request's own, "
                    + request.stream() + "; a fallback cannot change whether the answer streams).", at + ".stream",
                    "invalid_fallbacks");
        }
        ObjectNode body = request.body().deepCopy();
        for (Map.Entry<String, JsonNode> field : item.properties()) {
            body.set(field.getKey(), field.getValue().deepCopy());
        }
        return new ModelRequest(request.operation(), request.dialect(), body, request.group(), request.stream(),
                request.vendorHeaders(), body, request.form());
    }
}
