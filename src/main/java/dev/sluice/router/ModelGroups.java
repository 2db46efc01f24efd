package dev.sluice.router;

import dev.sluice.config.Deployment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Model groups by name, built from {@code model_list}; group order is first appearance. */
public final class ModelGroups {
    private final Map<String, ModelGroup> byName;

    private ModelGroups(Map<String, ModelGroup> byName) {
        this.byName = byName;
    }

    public static ModelGroups of(List<Deployment> deployments) {
        Map<String, List<Deployment>> grouped = new LinkedHashMap<>();
        for (Deployment d : deployments) {
            grouped.computeIfAbsent(d.modelName(), k -> new ArrayList<>()).add(d);
        }
        Map<String, ModelGroup> byName = new LinkedHashMap<>();
        grouped.forEach((name, members) -> byName.put(name, new ModelGroup(name, members)));
        return new ModelGroups(Collections.unmodifiableMap(byName));
    }

    public Optional<ModelGroup> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Group names in config order. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }
}
