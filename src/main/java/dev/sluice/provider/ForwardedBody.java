package dev.sluice.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;

/**
 * The body a deployment receives: the caller's, with {@code model} replaced and the
 * fields that only Sluice reads removed. Every other field, known or not, is kept, so new
 * OpenAI parameters pass through without a Sluice release.
 */
public final class ForwardedBody {
    /** Fields that steer Sluice itself and mean nothing (or something else) upstream. */
    static final Set<String> SLUICE_ONLY_FIELDS = Set.of(
            "router_settings_override",
            "guardrails",
            "num_retries",
            "timeout",
            "fallbacks",
            "context_window_fallbacks",
            "content_policy_fallbacks",
            "disable_fallbacks",
            "drop_params");

    private static final String MOCK_TESTING_PREFIX = "mock_testing_";

    private ForwardedBody() {}

    /**
     * A shallow copy of {@code callerBody} ready for the deployment's {@code providerModel}.
     * Nested values are shared with the caller's body, not copied (messages can be large):
     * adapters replace top-level fields and never change a nested value in place.
     */
    public static ObjectNode of(ObjectNode callerBody, String providerModel) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("model", providerModel);
        for (Map.Entry<String, JsonNode> field : callerBody.properties()) {
            String name = field.getKey();
            if (!name.equals("model") && !SLUICE_ONLY_FIELDS.contains(name) && !name.startsWith(MOCK_TESTING_PREFIX)) {
                body.set(name, field.getValue());
            }
        }
        return body;
    }
}
