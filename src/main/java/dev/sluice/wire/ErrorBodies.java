package dev.sluice.wire;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;

/** Renders errors in OpenAI's shape, the only error shape a Sluice caller ever sees. */
public final class ErrorBodies {
    private ErrorBodies() {}

    public static ObjectNode node(String message, String type, String param, String code) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode error = f.objectNode();
        error.put("message", message);
        error.put("type", type);
        if (param == null) {
            error.putNull("param");
        } else {
            error.put("param", param);
        }
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        ObjectNode root = f.objectNode();
        root.set("error", error);
        return root;
    }

    public static Buffer of(ApiError e) {
        return Json.buffer(node(e.getMessage(), e.type(), e.param(), e.code()));
    }
}
