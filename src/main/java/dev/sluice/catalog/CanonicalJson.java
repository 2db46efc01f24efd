package dev.sluice.catalog;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * JSON written so that the same prompt always gives the same bytes: object keys sorted, no
 * white space, and every {@code cache_control} marker left out. The markers say where a
 * provider may cache, not what the prompt is; a client that moves its marker to the newest
 * message each turn still sends the same earlier messages.
 */
final class CanonicalJson {
    static final String CACHE_CONTROL = "cache_control";

    private CanonicalJson() {}

    static void write(JsonNode node, JsonGenerator out) throws IOException {
        if (node.isObject()) {
            List<String> names = new ArrayList<>(node.size());
            node.fieldNames().forEachRemaining(names::add);
            Collections.sort(names);
            out.writeStartObject();
            for (String name : names) {
                if (!name.equals(CACHE_CONTROL)) {
                    out.writeFieldName(name);
                    write(node.get(name), out);
                }
            }
            out.writeEndObject();
        } else if (node.isArray()) {
            out.writeStartArray();
            for (JsonNode item : node) {
                write(item, out);
            }
            out.writeEndArray();
        } else {
            out.writeTree(node);
        }
    }
}
