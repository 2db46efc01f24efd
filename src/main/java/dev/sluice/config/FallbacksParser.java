package dev.sluice.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads LiteLLM's fallback lists, written as a list of single-key maps
 * ({@code [{"gpt-4": ["gpt-35", "claude"]}]}), into an ordered map, and checks that every
 * group fallen back to exists: a misspelt fallback would otherwise only show up during
 * the outage it was meant for.
 */
final class FallbacksParser {
    private static final String EXPECTED = "a list of single-key maps like {\"gpt-4\": [\"gpt-3.5-turbo\"]}";

    private final FieldReader read;
    private final Set<String> groups;
    private final String groupRule;

    /** @param groups the model groups of model_list; when empty (model_list is wrong), targets are not checked */
    FallbacksParser(FieldReader read, Set<String> groups) {
        this.read = read;
        this.groups = groups;
        this.groupRule = "a model_name from model_list: " + String.join(", ", new TreeSet<>(groups));
    }

    Optional<Map<String, List<String>>> fallbacks(ConfigNode node) {
        if (node.isAbsent()) {
            return Optional.empty();
        }
        if (!node.isList()) {
            read.problems().add(node, ShownValue.of(node.value(), false), EXPECTED);
            return Optional.empty();
        }
        Map<String, List<String>> fallbacks = new LinkedHashMap<>();
        Map<String, String> firstSeenAt = new LinkedHashMap<>();
        for (ConfigNode item : node.items()) {
            if (!item.isMap() || item.entries().size() != 1) {
                read.problems().add(item, shown(item), "a map with exactly one key: a model group and its fallback groups");
                continue;
            }
            Map.Entry<String, ConfigNode> entry = item.entries().getFirst();
            String earlier = firstSeenAt.putIfAbsent(entry.getKey(), item.path());
            if (earlier != null) {
                read.problems().add(entry.getValue(), "written again", "each group once; it already has fallbacks at " + earlier);
                continue;
            }
            targets(entry.getValue()).ifPresent(targets -> fallbacks.put(entry.getKey(), targets));
        }
        return Optional.of(Collections.unmodifiableMap(fallbacks));
    }

    /** A list of model groups, each of which must exist. */
    Optional<List<String>> targets(ConfigNode node) {
        if (node.isAbsent()) {
            return Optional.empty();
        }
        if (!node.isList()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a list of model groups");
            return Optional.empty();
        }
        List<String> targets = new ArrayList<>();
        for (ConfigNode item : node.items()) {
            if (item.isAbsent()) {
                read.problems().missing(item, groupRule);
            } else {
                read.string(item, group -> groups.isEmpty() || groups.contains(group), groupRule).ifPresent(targets::add);
            }
        }
        return Optional.of(List.copyOf(targets));
    }

    private static String shown(ConfigNode item) {
        return item.isMap() ? "a map with " + item.entries().size() + " keys" : ShownValue.of(item.value(), false);
    }
}
