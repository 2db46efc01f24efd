package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.NODES;
import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.WireFields;

/**
 * A {@code reasoning} item to and from {@link Reasoning}. The readable reasoning is the item's
 * {@code summary} (one {@code summary_text}), or its {@code content} of {@code reasoning_text}
 * parts when an upstream sends the full text. The opaque {@code encrypted_content} carries
 * what must come back unchanged in a later turn: a signed block's signature beside the
 * readable summary, or, with no summary at all, a redacted block's data. So an item with a
 * summary reads as readable reasoning signed by its {@code encrypted_content}; one with only
 * {@code encrypted_content} as redacted reasoning; one with neither says nothing and is dropped.
 */
final class ResponsesReasoning {
    private ResponsesReasoning() {}

    /** The reasoning an item holds, or null when it holds none. */
    static Reasoning decode(ObjectNode item, String path) {
        String encrypted = optionalText(item, "encrypted_content", path);
        String readable = readable(item, "content", "reasoning_text", path);
        if (readable == null) {
            readable = readable(item, "summary", "summary_text", path);
        }
        if (readable != null) {
            return new Reasoning(readable, encrypted, false);
        }
        return encrypted == null ? null : new Reasoning(encrypted, null, true);
    }

    /** The texts of the {@code type} parts under {@code field}, joined by blank lines; null when there are none. */
    private static String readable(ObjectNode item, String field, String type, String path) {
        JsonNode parts = item.get(field);
        if (absent(parts)) {
            return null;
        }
        String at = path(path, field);
        ArrayNode array = array(parts, at);
        if (array.isEmpty()) {
            return null;
        }
        StringBuilder joined = new StringBuilder();
        for (int i = 0; i < array.size(); i++) {
            ObjectNode part = object(array.get(i), path(at, i));
            if (!type.equals(part.path("type").asText(null))) {
                throw refused(path(path(at, i), "type"), part.get("type"), type);
            }
            joined.append(i == 0 ? "" : "\n\n").append(text(part, "text", path(at, i)));
        }
        return joined.toString();
    }

    /** The item for {@code reasoning}; {@code id} is left out when null. */
    static ObjectNode encode(Reasoning reasoning, String id) {
        ObjectNode item = NODES.objectNode();
        if (id != null) {
            item.put("id", id);
        }
        item.put("type", "reasoning");
        ArrayNode summary = item.putArray("summary");
        if (reasoning.redacted()) {
            item.put("encrypted_content", reasoning.text());
            return item;
        }
        summary.add(summaryText(reasoning.text()));
        if (reasoning.signature() != null) {
            item.put("encrypted_content", reasoning.signature());
        }
        return item;
    }

    static ObjectNode summaryText(String text) {
        return NODES.objectNode().put("type", "summary_text").put("text", text);
    }
}
