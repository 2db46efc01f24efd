package dev.sluice.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.GatewayFields;
import java.util.Map;
import java.util.Set;

/**
 * The body a deployment receives: the caller's, with {@code model} replaced and the
 * fields that only Sluice reads removed. Every other field, known or not, is kept, so new
 * OpenAI parameters pass through without a Sluice release.
 */
public final class ForwardedBody {
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
            if (!name.equals("model") && !GatewayFields.isGatewayField(name)) {
                body.set(name, field.getValue());
            }
        }
        return body;
    }
}
