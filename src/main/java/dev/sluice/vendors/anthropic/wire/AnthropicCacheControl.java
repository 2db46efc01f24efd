package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.CacheControl;

/**
 * Anthropic's prompt-cache breakpoint, {@code "cache_control": {"type": "ephemeral"}} with an
 * optional {@code "ttl": "5m" | "1h"}, on a system block, a content block, a
 * {@code tool_result} block or a tool: Anthropic caches the prompt up to and including it.
 */
final class AnthropicCacheControl {
    static final String FIELD = "cache_control";

    private AnthropicCacheControl() {}

    /** Writes {@code cache} on {@code block}; nothing when it is null. Returns {@code block}. */
    static ObjectNode write(CacheControl cache, ObjectNode block) {
        if (cache != null) {
            ObjectNode node = block.putObject(FIELD).put("type", "ephemeral");
            if (cache.ttl() != null) {
                node.put("ttl", cache.ttl());
            }
        }
        return block;
    }

    /** The breakpoint {@code block} carries, or null; a malformed one is refused naming {@code path}. */
    static CacheControl read(JsonNode block, String path) {
        JsonNode value = block.get(FIELD);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isObject()) {
            throw refused(path + "." + FIELD, value, "an object");
        }
        if (!"ephemeral".equals(value.path("type").asText(null))) {
            throw refused(path + "." + FIELD + ".type", value.get("type"), "ephemeral");
        }
        JsonNode ttl = value.get("ttl");
        if (ttl == null || ttl.isNull()) {
            return CacheControl.EPHEMERAL;
        }
        if (!ttl.isTextual() || !CacheControl.TTLS.contains(ttl.textValue())) {
            throw refused(path + "." + FIELD + ".ttl", ttl, "5m or 1h");
        }
        return new CacheControl(ttl.textValue());
    }

    private static IllegalArgumentException refused(String path, JsonNode value, String expected) {
        return new IllegalArgumentException(path + ": " + (value == null ? "missing" : AnthropicAnswers.shorten(value.toString()))
                + " (expected: " + expected + ")");
    }
}
