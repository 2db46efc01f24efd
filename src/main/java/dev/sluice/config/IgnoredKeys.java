package dev.sluice.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The config paths Sluice read but does not act on: keys it does not model (LiteLLM
 * keys such as {@code litellm_settings.callbacks}, and keys nobody knows) and modelled
 * keys whose feature is not built yet ({@link NotYetActedOn}). Start-up warns once,
 * listing them in file order.
 */
final class IgnoredKeys {
    private final Set<String> paths = new HashSet<>();

    /** A modelled key a parser read: ignored only if it is written and not acted on yet. */
    void taken(ConfigNode node) {
        if (!node.isAbsent() && NotYetActedOn.covers(node.path())) {
            paths.add(node.path());
        }
    }

    /** A key that is written but that no parser reads. */
    void unknown(ConfigNode node) {
        paths.add(node.path());
    }

    /** A modelled key that is acted on for some values only, written with one of the others. */
    void notActedOn(ConfigNode node) {
        paths.add(node.path());
    }

    /** The ignored paths in the order they appear in the file. */
    List<String> inFileOrder(ConfigNode root) {
        List<String> ordered = new ArrayList<>();
        collect(root, ordered);
        return List.copyOf(ordered);
    }

    private void collect(ConfigNode node, List<String> ordered) {
        if (paths.contains(node.path())) {
            ordered.add(node.path());
            return;
        }
        node.entries().forEach(entry -> collect(entry.getValue(), ordered));
        node.items().forEach(item -> collect(item, ordered));
    }
}
