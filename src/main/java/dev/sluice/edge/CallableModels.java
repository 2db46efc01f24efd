package dev.sluice.edge;

import dev.sluice.accounts.CalledModel;
import dev.sluice.config.GroupAlias;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.ModelGroups;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The names {@code /v1/models} lists for one caller: the groups it may call, in config order
 * (a wildcard group by its pattern, {@code openai/*}, as LiteLLM lists it with
 * {@code return_wildcard_routes}), then the aliases of {@code model_group_alias} that are not
 * hidden and stand for a group it may call, then the names in the calling key's own
 * {@code models} that a wildcard group serves and it may call ({@code openai/gpt-4o-mini}
 * under {@code openai/*}): LiteLLM lists a key's models. Its access groups are listed apart.
 *
 * @param keyModels the calling key's {@code models}; empty for a caller without a key
 * @param mayUse    whether the caller may make a call
 */
record CallableModels(ModelGroups groups, Map<String, GroupAlias> aliases, List<String> keyModels, Predicate<CalledModel> mayUse) {

    List<String> names() {
        Set<String> names = new LinkedHashSet<>();
        for (String group : groups.names()) {
            if (mayUse.test(CalledModel.of(group))) {
                names.add(group);
            }
        }
        aliases.forEach((alias, target) -> {
            Optional<ModelGroup> group = groups.find(target.model());
            if (!target.hidden() && group.isPresent() && mayUse.test(new CalledModel(alias, group.get().name()))) {
                names.add(alias);
            }
        });
        for (String model : keyModels) {
            if (grantsNoName(model)) {
                continue;
            }
            groups.find(model).filter(group -> !group.name().equals(model))
                    .filter(group -> mayUse.test(new CalledModel(model, group.name())))
                    .ifPresent(group -> names.add(model));
        }
        return List.copyOf(names);
    }

    /** Whether a {@code models} entry grants models without being one: LiteLLM's special names, an access group. */
    private boolean grantsNoName(String entry) {
        return entry.equals("all-proxy-models") || entry.equals("all-team-models") || groups.accessGroups().containsKey(entry);
    }

    /** The {@code model_info.access_groups} names the caller is granted: listed in its {@code models}, or all when unrestricted. */
    List<String> accessGroups() {
        return groups.accessGroups().keySet().stream().filter(name -> mayUse.test(CalledModel.of(name))).toList();
    }
}
