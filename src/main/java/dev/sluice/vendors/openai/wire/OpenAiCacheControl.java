package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.NODES;
import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.CacheControl;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Cacheable;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;

/**
 * Prompt-cache breakpoints as LiteLLM's OpenAI-speaking callers write them: Anthropic's
 * {@code "cache_control": {"type": "ephemeral", "ttl": "5m" | "1h"}} on a content part, on a
 * whole message, on a tool ({@code tools[i]}, or inside its {@code function} as LiteLLM also
 * reads it). OpenAI itself has no such field; a body bound for an OpenAI-speaking upstream is
 * passed on as the caller wrote it, so this only matters when a call crosses the internal model.
 */
final class OpenAiCacheControl {
    static final String FIELD = "cache_control";

    private OpenAiCacheControl() {}

    /** The breakpoint {@code parent} carries, or null when it carries none. */
    static CacheControl read(JsonNode parent, String parentPath) {
        JsonNode value = parent.get(FIELD);
        if (absent(value)) {
            return null;
        }
        String path = path(parentPath, FIELD);
        ObjectNode cache = object(value, path);
        if (!"ephemeral".equals(cache.path("type").asText(null))) {
            throw refused(path(path, "type"), cache.get("type"), "ephemeral");
        }
        String ttl = optionalText(cache, "ttl", path);
        if (ttl != null && !CacheControl.TTLS.contains(ttl)) {
            throw refused(path(path, "ttl"), cache.get("ttl"), "5m or 1h");
        }
        return new CacheControl(ttl);
    }

    /** Writes {@code cache} on {@code target} as {@code cache_control}; nothing when it is null. */
    static void write(CacheControl cache, ObjectNode target) {
        if (cache == null) {
            return;
        }
        ObjectNode node = target.putObject(FIELD).put("type", "ephemeral");
        if (cache.ttl() != null) {
            node.put("ttl", cache.ttl());
        }
    }

    /**
     * {@code parts} with a message's own {@code cache_control} on its last part that can carry
     * one, as LiteLLM applies it (a string content being one text part); a part's own
     * breakpoint is kept. With no such part the breakpoint has nowhere to go and is left out.
     */
    static List<ContentPart> onLastPart(List<ContentPart> parts, CacheControl cache) {
        if (cache == null) {
            return parts;
        }
        List<ContentPart> marked = new ArrayList<>(parts);
        for (int i = marked.size() - 1; i >= 0; i--) {
            if (marked.get(i) instanceof Cacheable part) {
                if (part.cache() == null) {
                    marked.set(i, part.withCache(cache));
                }
                return marked;
            }
        }
        return marked;
    }
}
