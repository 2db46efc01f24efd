package dev.sluice.config;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A config map read key by key. Each key a parser takes is noted with {@link IgnoredKeys}
 * (which knows whether Sluice acts on it yet); {@link #finish()} reports every key nobody
 * took, so no key is dropped in silence.
 */
final class Section {
    private final ConfigNode node;
    private final IgnoredKeys ignored;
    private final Set<String> taken = new HashSet<>();

    private Section(ConfigNode node, IgnoredKeys ignored) {
        this.node = node;
        this.ignored = ignored;
    }

    /**
     * The map at {@code node}; an absent node is an empty section, anything but a map is a
     * problem (and an empty section, so parsing goes on and finds the other problems).
     *
     * @param expected the rule for the problem, e.g. {@code a map with at least model}
     */
    static Section open(ConfigNode node, IgnoredKeys ignored, Problems problems, String expected) {
        if (!node.isAbsent() && !node.isMap()) {
            problems.add(node, ShownValue.of(node.value(), false), expected);
        }
        return new Section(node, ignored);
    }

    ConfigNode node() {
        return node;
    }

    ConfigNode take(String key) {
        taken.add(key);
        ConfigNode child = node.get(key);
        ignored.taken(child);
        return child;
    }

    void finish() {
        for (Map.Entry<String, ConfigNode> entry : node.entries()) {
            if (!taken.contains(entry.getKey())) {
                ignored.unknown(entry.getValue());
            }
        }
    }
}
