package dev.sluice.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Reads {@code model_list}: every entry, the model groups they form, and their ids. */
record ModelListParser(FieldReader read, DeploymentParser entries) {
    private static final String EXPECTED = "a non-empty list of deployments";

    /**
     * @param groups every {@code model_name} that was read, even from an entry with other
     *               problems, so a fallback to it is not reported as a second problem
     */
    record ModelList(List<Deployment> deployments, Set<String> groups) {}

    ModelList parse(ConfigNode node) {
        if (node.isAbsent()) {
            read.problems().missing(node, EXPECTED);
            return new ModelList(List.of(), Set.of());
        }
        if (!node.isList() || node.items().isEmpty()) {
            read.problems().add(node, ShownValue.of(node.value(), false), EXPECTED);
            return new ModelList(List.of(), Set.of());
        }
        Set<String> groups = new LinkedHashSet<>();
        List<DeploymentIds.IndexedEntry> complete = new ArrayList<>();
        List<ConfigNode> items = node.items();
        for (int i = 0; i < items.size(); i++) {
            DeploymentParser.Entry entry = entries.parse(items.get(i));
            entry.modelName().ifPresent(groups::add);
            if (entry.modelName().isPresent() && entry.params().isPresent()) {
                complete.add(new DeploymentIds.IndexedEntry(
                        i, entry.node(), entry.modelName().get(), entry.params().get(), entry.info()));
            }
        }
        return new ModelList(DeploymentIds.assign(complete, read.problems()), Collections.unmodifiableSet(groups));
    }
}
