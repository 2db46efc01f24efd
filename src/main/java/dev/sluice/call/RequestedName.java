package dev.sluice.call;

import dev.sluice.access.Caller;
import dev.sluice.config.GroupAlias;
import dev.sluice.router.GroupAliases;
import java.util.Map;

/**
 * The name a call's group is looked up by, from the {@code model} it sent: the calling key's
 * {@code aliases} first (LiteLLM applies them to the request before routing), then
 * {@code router_settings.model_group_alias}; each one step, so no chain of aliases can loop.
 */
final class RequestedName {
    private RequestedName() {}

    static String resolve(Caller caller, Map<String, GroupAlias> groupAliases, String asked) {
        String named = caller instanceof Caller.Keyed keyed ? keyed.key().aliases().getOrDefault(asked, asked) : asked;
        return GroupAliases.target(groupAliases, named);
    }
}
