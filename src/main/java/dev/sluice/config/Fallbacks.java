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
 * LiteLLM's fallback lists, written as a list of single-key maps
 * ({@code [{"gpt-4": ["gpt-35", "claude"]}]}), read into an ordered map. Every group fallen
 * back to must exist where the model groups are known: a misspelt fallback would otherwise
 * only show up during the outage it was meant for.
 */
final class Fallbacks {
    private static final String EXPECTED = "a list of single-key maps like {\"gpt-4\": [\"gpt-3.5-turbo\"]}";
    private static final String ONE_KEY = "a map with exactly one key: a model group and its fallback groups";

    private final Set<String> groups;

    /** @param groups the model groups served; when empty, targets are not checked */
    Fallbacks(Set<String> groups) {
        this.groups = groups;
    }

    /** Told only when a target is wrong: sorting every group's name is not for every call. */
    private String groupRule() {
        return "a model_name from model_list: " + String.join(", ", new TreeSet<>(groups));
    }

    Optional<Map<String, List<String>>> byGroup(Written written) {
        return read(written, null);
    }

    /**
     * As {@link #byGroup}, also taking the short form a request may use for the group it
     * calls: a group name, or {@code {"model": "group", ...}}, as an item of the list. The
     * object's other fields are what the fallback changes in the request
     * ({@link FallbackRequests}); here only its {@code model} counts.
     */
    Optional<Map<String, List<String>>> withShortForm(Written written, String requested) {
        return read(written, requested);
    }

    private Optional<Map<String, List<String>>> read(Written written, String requested) {
        if (written.isAbsent()) {
            return Optional.empty();
        }
        if (!written.isList()) {
            written.problem(written.shown(), EXPECTED);
            return Optional.empty();
        }
        Map<String, List<String>> fallbacks = new LinkedHashMap<>();
        Map<String, String> firstSeenAt = new LinkedHashMap<>();
        List<String> shortForm = new ArrayList<>();
        for (Written item : written.items()) {
            if (requested != null && isShortForm(item)) {
                Written target = item.isMap() ? modelOf(item) : item;
                target(target).ifPresent(shortForm::add);
                continue;
            }
            if (requested != null && item.isMap() && item.entries().size() > 1) {
                item.problem("an object without a model", "{\"model\": \"<group>\", ...}: the group to fall back to and what to change for it");
                continue;
            }
            if (!item.isMap() || item.entries().size() != 1) {
                item.problem(item.isMap() ? "a map with " + item.entries().size() + " keys" : item.shown(), ONE_KEY);
                continue;
            }
            Map.Entry<String, Written> entry = item.entries().getFirst();
            if (entry.getKey().isBlank()) {
                item.problem(item.shown(), "a model group name as the key");
                continue;
            }
            String earlier = firstSeenAt.putIfAbsent(entry.getKey(), item.path());
            if (earlier != null) {
                entry.getValue().problem("written again", "each group once; it already has fallbacks at " + earlier);
                continue;
            }
            targets(entry.getValue()).ifPresent(targets -> fallbacks.put(entry.getKey(), targets));
        }
        if (!shortForm.isEmpty()) {
            if (fallbacks.containsKey(requested)) {
                written.problem("written again", "each group once; " + requested + " has fallbacks in both forms");
            }
            fallbacks.put(requested, List.copyOf(shortForm));
        }
        return Optional.of(Collections.unmodifiableMap(fallbacks));
    }

    private static boolean isShortForm(Written item) {
        if (item.isMap()) {
            Written model = modelOf(item);
            return model != null && model.scalar().filter(s -> s.value().isTextual()).isPresent();
        }
        return !item.isList() && !item.isAbsent();
    }

    /** An object's {@code model}; null when it has none. */
    private static Written modelOf(Written item) {
        for (Map.Entry<String, Written> entry : item.entries()) {
            if (entry.getKey().equals("model")) {
                return entry.getValue();
            }
        }
        return null;
    }

    /** A list of model groups, each of which must exist. */
    Optional<List<String>> targets(Written written) {
        if (written.isAbsent()) {
            return Optional.empty();
        }
        if (!written.isList()) {
            written.problem(written.shown(), "a list of model groups");
            return Optional.empty();
        }
        List<String> targets = new ArrayList<>();
        for (Written item : written.items()) {
            if (item.isAbsent()) {
                item.problem("missing", groupRule());
            } else {
                target(item).ifPresent(targets::add);
            }
        }
        return Optional.of(List.copyOf(targets));
    }

    private Optional<String> target(Written item) {
        return Scalars.text(item, this::served, this::groupRule);
    }

    /** A group of that name, or a name a wildcard group ({@code openai/*}) serves. */
    private boolean served(String target) {
        return groups.isEmpty() || groups.contains(target)
                || groups.stream().anyMatch(g -> WildcardPattern.isPattern(g) && WildcardPattern.of(g).matches(target));
    }
}
