package dev.sluice.vendors.bedrock.wire;

import static dev.sluice.vendors.bedrock.wire.ConverseJson.NODES;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.CacheControl;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Cacheable;
import dev.sluice.model.ContentPart.ToolResult;
import java.util.List;
import java.util.Locale;

/**
 * Prompt-cache breakpoints as Converse takes them: a {@code {"cachePoint": {"type": "default"}}}
 * block right after the system block, content block or tool that carries one, as LiteLLM writes
 * a caller's {@code cache_control} for Bedrock. Converse has no place for a breakpoint inside a
 * tool result, so one there marks the end of the whole {@code toolResult} block.
 *
 * <p>Only Claude and Nova models take cache points; any other model refuses them, so for a model
 * id that names another family the breakpoint, a hint, is left out (an application inference
 * profile's ARN names no model and gets them). A {@code ttl} is written only for the Claude
 * models that take one (4.5 and later, as LiteLLM lists them); others get the default lifetime.
 */
record ConverseCachePoints(boolean taken, boolean ttl) {
    private static final List<String> TTL_MODELS = List.of("sonnet-4-5", "haiku-4-5", "opus-4-5", "sonnet-4-6", "opus-4-6",
            "opus-4-7");

    static ConverseCachePoints forModel(String modelId) {
        String id = modelId.toLowerCase(Locale.ROOT).replace('.', '-').replace('_', '-');
        boolean claude = id.contains("anthropic-") || id.contains("claude");
        boolean taken = claude || id.contains("nova") || (id.startsWith("arn:") && id.contains("inference-profile/"));
        return new ConverseCachePoints(taken, claude && TTL_MODELS.stream().anyMatch(id::contains));
    }

    /** The block to follow one that carries {@code cache}, or null when there is none to write. */
    ObjectNode after(CacheControl cache) {
        if (cache == null || !taken) {
            return null;
        }
        ObjectNode point = NODES.objectNode().put("type", "default");
        if (ttl && cache.ttl() != null) {
            point.put("ttl", cache.ttl());
        }
        return NODES.objectNode().set("cachePoint", point);
    }

    /** The breakpoint after {@code part}: its own, or for a tool result the first one a part inside carries. */
    static CacheControl of(ContentPart part) {
        if (part instanceof ToolResult result && result.cache() == null) {
            return result.content().stream().map(inner -> ((Cacheable) inner).cache())
                    .filter(cache -> cache != null).findFirst().orElse(null);
        }
        return part instanceof Cacheable cacheable ? cacheable.cache() : null;
    }
}
