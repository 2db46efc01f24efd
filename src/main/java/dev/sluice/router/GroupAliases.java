package dev.sluice.router;

import dev.sluice.config.GroupAlias;
import java.util.Map;

/**
 * {@code router_settings.model_group_alias} read for one request: a name that is an alias is
 * served by the group it stands for, as in LiteLLM, which looks an alias up before the
 * groups; a hidden alias is served just the same. One step only: an alias of an alias is not
 * followed, so no chain of aliases can loop.
 */
public final class GroupAliases {
    private GroupAliases() {}

    /** The name {@code asked} stands for: its alias target, or itself. */
    public static String target(Map<String, GroupAlias> aliases, String asked) {
        GroupAlias alias = aliases.get(asked);
        return alias == null ? asked : alias.model();
    }
}
