package dev.sluice.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Settles each deployment's id: {@code model_info.id} when written, else one derived from
 * the entry itself.
 *
 * <p>A derived id is the hex SHA-256 of a canonical JSON (keys sorted) of
 * {@code model_name} and {@code litellm_params} exactly as written, before
 * {@code os.environ/} is resolved: rotating a key in the environment keeps the id, so
 * cooldowns, metrics and spend stay attached to the same deployment, while changing a
 * param (another api_base, another model) makes a new one. Two identical entries would
 * share a hash, so later ones get {@code -2}, {@code -3}, ... in file order; two entries
 * that write the same {@code model_info.id} are a problem, because someone chose that id.
 */
final class DeploymentIds {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();

    private DeploymentIds() {}

    /** @param entries complete entries in file order, with the index each had in model_list */
    static List<Deployment> assign(List<IndexedEntry> entries, Problems problems) {
        Set<String> taken = new HashSet<>();
        Map<String, Integer> explicitOwner = new HashMap<>();
        for (IndexedEntry entry : entries) {
            entry.info().id().ifPresent(id -> {
                Integer owner = explicitOwner.putIfAbsent(id, entry.index());
                if (owner != null) {
                    problems.add(entry.node().get("model_info").get("id"), ShownValue.text(NODES.textNode(id)),
                            "an id not already used by model_list[" + owner + "]");
                }
                taken.add(id);
            });
        }
        return entries.stream().map(entry -> {
            String id = entry.info().id().orElseGet(() -> unique(derive(entry.node()), taken));
            return new Deployment(id, entry.modelName(), entry.params(), entry.info());
        }).toList();
    }

    /** A deployment that read without problems, with its place in model_list. */
    record IndexedEntry(int index, ConfigNode node, String modelName, LitellmParams params, ModelInfo info) {}

    static String derive(ConfigNode entry) {
        ObjectNode identity = NODES.objectNode();
        identity.set("litellm_params", entry.get("litellm_params").value());
        identity.set("model_name", entry.get("model_name").value());
        try {
            byte[] json = JSON.writeValueAsBytes(canonical(identity));
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot derive a deployment id", e); // neither happens for a plain tree
        }
    }

    private static String unique(String base, Set<String> taken) {
        String id = base;
        for (int n = 2; !taken.add(id); n++) {
            id = base + "-" + n;
        }
        return id;
    }

    private static JsonNode canonical(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            node.properties().forEach(entry -> sorted.put(entry.getKey(), canonical(entry.getValue())));
            ObjectNode object = NODES.objectNode();
            sorted.forEach(object::set);
            return object;
        }
        if (node.isArray()) {
            ArrayNode array = NODES.arrayNode();
            node.forEach(item -> array.add(canonical(item)));
            return array;
        }
        return node;
    }
}
