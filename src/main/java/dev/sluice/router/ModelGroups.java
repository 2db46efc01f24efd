package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.WildcardPattern;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Model groups by name, built from {@code model_list}; group order is first appearance.
 *
 * <p>A group whose name holds a {@code *} ({@code openai/*}, {@code *}) is a wildcard group:
 * it serves every name it {@linkplain WildcardPattern matches} that no group of its own serves,
 * the most specific pattern first. Found for a name, it keeps its pattern as its name (what
 * spend, metrics, benches and fallbacks are counted by, so they stay bounded however many names
 * callers try) and its deployments ask their upstream for the name, as {@link WildcardPattern#substitute}
 * reads it; each keeps its id, so a wildcard deployment is benched as one.
 */
public final class ModelGroups {
    private final Map<String, ModelGroup> byName;
    private final List<WildcardPattern> wildcards;
    private final Map<String, List<String>> accessGroups;

    private ModelGroups(Map<String, ModelGroup> byName, List<WildcardPattern> wildcards, Map<String, List<String>> accessGroups) {
        this.byName = byName;
        this.wildcards = wildcards;
        this.accessGroups = accessGroups;
    }

    public static ModelGroups of(List<Deployment> deployments) {
        Map<String, List<Deployment>> grouped = new LinkedHashMap<>();
        Map<String, Set<String>> accessGroups = new LinkedHashMap<>();
        for (Deployment d : deployments) {
            grouped.computeIfAbsent(d.modelName(), k -> new ArrayList<>()).add(d);
            for (String accessGroup : d.info().accessGroups()) {
                accessGroups.computeIfAbsent(accessGroup, k -> new LinkedHashSet<>()).add(d.modelName());
            }
        }
        Map<String, ModelGroup> byName = new LinkedHashMap<>();
        grouped.forEach((name, members) -> byName.put(name, new ModelGroup(name, members)));
        List<WildcardPattern> wildcards = new ArrayList<>();
        for (String name : byName.keySet()) {
            if (WildcardPattern.isPattern(name)) {
                wildcards.add(WildcardPattern.of(name));
            }
        }
        wildcards.sort(WildcardPattern.MOST_SPECIFIC_FIRST);
        Map<String, List<String>> members = new LinkedHashMap<>();
        accessGroups.forEach((name, groups) -> members.put(name, List.copyOf(groups)));
        return new ModelGroups(Collections.unmodifiableMap(byName), List.copyOf(wildcards), Collections.unmodifiableMap(members));
    }

    /**
     * The group that serves {@code name}: the group of that name, else the most specific
     * wildcard group matching it, its deployments asking for {@code name}.
     */
    public Optional<ModelGroup> find(String name) {
        ModelGroup own = byName.get(name);
        if (own != null && !WildcardPattern.isPattern(name)) {
            return Optional.of(own);
        }
        for (WildcardPattern pattern : wildcards) {
            Optional<List<String>> segments = pattern.segments(name);
            if (segments.isPresent()) {
                return Optional.of(serving(byName.get(pattern.text()), segments.get(), name));
            }
        }
        return Optional.empty();
    }

    private static ModelGroup serving(ModelGroup wildcard, List<String> segments, String name) {
        List<Deployment> concrete = new ArrayList<>(wildcard.deployments().size());
        for (Deployment d : wildcard.deployments()) {
            concrete.add(d.withModel(WildcardPattern.substitute(d.params().model(), segments, name)));
        }
        return new ModelGroup(wildcard.name(), concrete);
    }

    /** Group names in config order, wildcard patterns among them as written. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /**
     * Each {@code model_info.access_groups} name to the groups whose deployments list it, in
     * config order; a group is in an access group when any of its deployments lists it.
     */
    public Map<String, List<String>> accessGroups() {
        return accessGroups;
    }
}
