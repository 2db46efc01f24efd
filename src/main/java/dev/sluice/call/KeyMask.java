package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.ops.logging.SecretEchoes;
import dev.sluice.vendors.Providers;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Masks the keys a deployment was sent in everything relayed back from it: providers quote
 * the key they got ("Incorrect API key provided: sk-..."), in a message, a code, a nested
 * field or a header, and a caller must never see the gateway's key, wherever it came from
 * (the deployment's {@code api_key} or a provider variable). Echoes count too: the key in
 * another letter case, base64- or percent-encoded, cut short or split ({@link SecretEchoes}).
 * A key shorter than four characters is not looked for: it would match ordinary text.
 */
public record KeyMask(List<Secret> keys) {

    /** The mask of the secrets {@code deployment}'s provider adapter sends it. */
    public static KeyMask of(Providers providers, Deployment deployment) {
        return new KeyMask(providers.forDeployment(deployment).secrets(deployment));
    }

    /** Every secret the adapters send {@code deployments}: what the log and callback payloads mask too. */
    public static List<String> secretsOf(Providers providers, List<Deployment> deployments) {
        List<String> secrets = new ArrayList<>();
        for (Deployment deployment : deployments) {
            providers.forDeployment(deployment).secrets(deployment).forEach(secret -> secrets.add(secret.value()));
        }
        return secrets;
    }

    public String text(String text) {
        if (keys.isEmpty() || text == null) {
            return text;
        }
        return SecretEchoes.of(keys.stream().map(Secret::value).toList()).mask(text);
    }

    /** Masks every string of a JSON tree in place, field names included. */
    void tree(JsonNode node) {
        if (keys.isEmpty()) {
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
        if (keys.isEmpty()) {
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
