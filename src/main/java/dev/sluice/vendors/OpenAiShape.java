package dev.sluice.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Brings upstream answers into OpenAI's shape: success bodies get complete {@code usage}
 * counts, error bodies become {@code {"error":{"message","type","param","code"}}} with the
 * upstream's status in {@code upstream_status} and its own text kept.
 */
public final class OpenAiShape {
    /** How much of an upstream error body is kept when it has to be quoted. */
    static final int MAX_QUOTED_CHARS = 2000;

    private OpenAiShape() {}

    /**
     * A 2xx body as the caller should see it, or empty when it is not a JSON object (which
     * the caller must treat as a broken upstream, not a success).
     */
    public static Optional<Buffer> success(Buffer body) {
        return answer(body).map(ShapedAnswer::body);
    }

    /** Like {@link #success}, with the token counts of its {@code usage} (0 when it has none). */
    public static Optional<ShapedAnswer> answer(Buffer body) {
        byte[] bytes = body.getBytes();
        JsonNode usage;
        try {
            usage = AnswerScan.usage(bytes);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (usage == null) {
            return Optional.empty();
        }
        if (UsageCompletion.incomplete(usage)) {
            return completed(bytes);
        }
        return Optional.of(new ShapedAnswer(body, bytes, usage));
    }

    /** An answer whose usage lacks a count: its tree, completed, is what the caller gets. */
    private static Optional<ShapedAnswer> completed(byte[] bytes) {
        try {
            return Optional.of(answer((ObjectNode) Json.parse(bytes)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * An answer held as a tree (one translated from another vendor's, or parsed to complete its
     * usage): its usage completed, its body written from it once.
     */
    public static ShapedAnswer answer(ObjectNode tree) {
        UsageCompletion.complete(tree);
        return new ShapedAnswer(Json.buffer(tree), tree);
    }

    /**
     * A 2xx answer as the caller will get it: its body, its tree (for checks that read it, not
     * to be changed; parsed when first asked for, when the body was only scanned), its
     * {@code usage} and the counts read from it (0 when absent). Used on one event loop.
     */
    public static final class ShapedAnswer {
        private final Buffer body;
        private byte[] unparsed;
        private ObjectNode tree;
        private final JsonNode usage;
        private final long totalTokens;
        private final long completionTokens;

        /** An answer whose tree is built, with the counts its usage gives. */
        public ShapedAnswer(Buffer body, ObjectNode tree) {
            this(body, tree, tree.path("usage").path("total_tokens").asLong(0),
                    tree.path("usage").path("completion_tokens").asLong(0));
        }

        /** An answer whose tree is built, translated from a vendor's answer with these counts. */
        public ShapedAnswer(Buffer body, ObjectNode tree, long totalTokens, long completionTokens) {
            this.body = body;
            this.tree = tree;
            this.usage = tree.path("usage");
            this.totalTokens = totalTokens;
            this.completionTokens = completionTokens;
        }

        /** An answer only scanned: {@code bytes} are parsed if its tree is asked for. */
        ShapedAnswer(Buffer body, byte[] bytes, JsonNode usage) {
            this.body = body;
            this.unparsed = bytes;
            this.usage = usage;
            this.totalTokens = usage.path("total_tokens").asLong(0);
            this.completionTokens = usage.path("completion_tokens").asLong(0);
        }

        public Buffer body() {
            return body;
        }

        public ObjectNode tree() {
            if (tree == null) {
                try {
                    tree = (ObjectNode) Json.parse(unparsed);
                } catch (IOException e) {
                    // The scan read these bytes as one JSON object already.
                    throw new UncheckedIOException(e);
                }
                unparsed = null;
            }
            return tree;
        }

        /** The answer's {@code usage}; a missing node when it has none. */
        public JsonNode usage() {
            return usage;
        }

        public long totalTokens() {
            return totalTokens;
        }

        public long completionTokens() {
            return completionTokens;
        }
    }

    /** An error answer in OpenAI's shape, keeping what the upstream said. */
    public static ObjectNode error(int status, Buffer body) {
        JsonNode root = null;
        try {
            root = body.length() == 0 ? null : Json.parse(body.getBytes());
        } catch (IOException ignored) {
            // Not JSON (an HTML error page, a proxy's text): quoted below.
        }
        ObjectNode shaped;
        boolean anthropic = root != null && "error".equals(root.path("type").asText(null));
        if (!anthropic && root != null && root.path("error").isObject() && root.path("error").path("message").isTextual()) {
            shaped = (ObjectNode) root;
            ObjectNode error = (ObjectNode) shaped.get("error");
            if (!error.has("type")) {
                error.put("type", typeFor(status));
            }
            if (!error.has("param")) {
                error.putNull("param");
            }
            if (!error.has("code")) {
                error.putNull("code");
            }
        } else {
            shaped = ErrorBodies.node(messageOf(root, body), typeFor(status), null, codeOf(root));
        }
        ((ObjectNode) shaped.get("error")).put("upstream_status", status);
        return shaped;
    }

    /** OpenAI's error type for a status. */
    public static String typeFor(int status) {
        return switch (status) {
            case 400, 413, 422 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 408 -> "timeout_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "server_error" : "invalid_request_error";
        };
    }

    /** The message of a non-OpenAI error: Anthropic's {@code error.message} (its {@code error.type} becomes the code), FastAPI's {@code detail}, or the raw text. */
    private static String messageOf(JsonNode root, Buffer body) {
        if (root != null) {
            for (JsonNode candidate : new JsonNode[] {
                    root.path("error").path("message"), root.path("error"), root.path("detail"), root.path("message")}) {
                if (candidate.isTextual() && !candidate.textValue().isBlank()) {
                    return candidate.textValue();
                }
            }
        }
        String text = body.toString(StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            return "The upstream answered with no body.";
        }
        return text.length() > MAX_QUOTED_CHARS ? text.substring(0, MAX_QUOTED_CHARS) + "…" : text;
    }

    private static String codeOf(JsonNode root) {
        if (root == null) {
            return null;
        }
        JsonNode type = root.path("error").path("type");
        return type.isTextual() ? type.textValue() : null;
    }
}
