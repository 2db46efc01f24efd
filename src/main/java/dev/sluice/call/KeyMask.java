package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.provider.Providers;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Masks the key a deployment was sent in everything relayed back from it: providers quote
 * the key they got ("Incorrect API key provided: sk-..."), in a message, a code, a nested
 * field or a header, and a caller must never see the gateway's key, wherever it came from
 * (the deployment's {@code api_key} or a provider variable). A key shorter than four
 * characters is not looked for: it would match ordinary text.
 */
record KeyMask(Optional<Secret> key) {
    private static final int SHORTEST_KEY = 4;

    /** The mask of the key {@code deployment}'s provider adapter sends it. */
    static KeyMask of(Providers providers, Deployment deployment) {
        return new KeyMask(providers.forDeployment(deployment).key(deployment));
    }

    String text(String text) {
        if (key.isEmpty() || key.get().value().length() < SHORTEST_KEY || !text.contains(key.get().value())) {
            return text;
        }
        return text.replace(key.get().value(), key.get().masked());
    }

    /** Masks every string of a JSON tree in place, field names included. */
    void tree(JsonNode node) {
        if (key.isEmpty()) {
            return;
        }
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode value = object.get(name);
                String shown = text(name);
                if (value.isTextual()) {
                    value = object.textNode(text(value.textValue()));
                } else {
                    tree(value);
                }
                if (!shown.equals(name)) {
                    object.remove(name);
                }
                object.set(shown, value);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                JsonNode value = array.get(i);
                if (value.isTextual()) {
                    array.set(i, array.textNode(text(value.textValue())));
                } else {
                    tree(value);
                }
            }
        }
    }

    /** The headers with the key masked in every value. */
    Iterable<Map.Entry<String, String>> headers(Iterable<Map.Entry<String, String>> headers) {
        if (key.isEmpty()) {
            return headers;
        }
        return () -> new Iterator<>() {
            private final Iterator<Map.Entry<String, String>> inner = headers.iterator();

            @Override
            public boolean hasNext() {
                return inner.hasNext();
            }

            @Override
            public Map.Entry<String, String> next() {
                Map.Entry<String, String> header = inner.next();
                return Map.entry(header.getKey(), text(header.getValue()));
            }
        };
    }
}
