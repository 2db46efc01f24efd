package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A value of the config tree together with the path that leads to it, e.g.
 * {@code model_list[2].litellm_params.rpm}, so every problem can name where it is.
 * An absent key is a node too ({@link #isAbsent()}), which keeps readers free of null checks.
 */
final class ConfigNode {
    /** Keys that read clearly after a dot; anything else is written {@code ["gpt-3.5-turbo"]}. */
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z0-9_\\-*]+");

    private final JsonNode value;
    private final String path;

    private ConfigNode(JsonNode value, String path) {
        this.value = value;
        this.path = path;
    }

    static ConfigNode root(JsonNode value) {
        return new ConfigNode(value, "");
    }

    /** The path in error-message form; the root is {@code (top level)}. */
    String path() {
        return path.isEmpty() ? "(top level)" : path;
    }

    JsonNode value() {
        return value;
    }

    /** Not written, or written with no value ({@code key:} or {@code ~}): LiteLLM treats both as unset. */
    boolean isAbsent() {
        return value.isMissingNode() || value.isNull();
    }

    boolean isMap() {
        return value.isObject();
    }

    boolean isList() {
        return value.isArray();
    }

    /** The same place holding another value, e.g. a variable standing in for an unset key. */
    ConfigNode withValue(JsonNode replacement) {
        return new ConfigNode(replacement, path);
    }

    ConfigNode get(String key) {
        JsonNode child = value.isObject() && value.has(key) ? value.get(key) : MissingNode.getInstance();
        return new ConfigNode(child, childPath(path, key));
    }

    /** The entries of a map in file order; none for anything else. */
    List<Map.Entry<String, ConfigNode>> entries() {
        List<Map.Entry<String, ConfigNode>> entries = new ArrayList<>();
        if (value.isObject()) {
            for (Map.Entry<String, JsonNode> entry : value.properties()) {
                entries.add(Map.entry(entry.getKey(), new ConfigNode(entry.getValue(), childPath(path, entry.getKey()))));
            }
        }
        return entries;
    }

    /** The items of a list in file order; none for anything else. */
    List<ConfigNode> items() {
        List<ConfigNode> items = new ArrayList<>();
        for (int i = 0; value.isArray() && i < value.size(); i++) {
            items.add(new ConfigNode(value.get(i), path + "[" + i + "]"));
        }
        return items;
    }

    static String childPath(String parent, String key) {
        String segment = PLAIN_KEY.matcher(key).matches() ? key : "[\"" + key.replace("\"", "\\\"") + "\"]";
        if (parent.isEmpty()) {
            return segment;
        }
        return segment.startsWith("[") ? parent + segment : parent + "." + segment;
    }
}
