package dev.sluice.call;

import dev.sluice.accounts.Caller;
import dev.sluice.config.GroupAlias;
import dev.sluice.router.GroupAliases;
import java.util.Map;

/**
 * The name a call's group is looked up by, from the {@code model} it sent, in LiteLLM's order:
 * the calling key's team's {@code model_aliases}, then the key's own {@code aliases} on what
 * that gave, then {@code router_settings.model_group_alias}. LiteLLM rewrites the request's
 * model with the team's map and then the key's before routing, so a name both maps is the
 * team's. Each map is applied once, so no chain of aliases can loop.
 */
public final class RequestedName {
    private RequestedName() {}

    /** The group name {@code caller}'s {@code asked} model is looked up by, through the aliases in that order. */
    public static String resolve(Caller caller, Map<String, GroupAlias> groupAliases, String asked) {
        String named = asked;
        if (caller instanceof Caller.Keyed keyed) {
            named = keyed.team().map(team -> team.modelAliases().getOrDefault(asked, asked)).orElse(asked);
            named = keyed.key().aliases().getOrDefault(named, named);
        }
        return GroupAliases.target(groupAliases, named);
    }
}
