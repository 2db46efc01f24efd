package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.Team;
import dev.sluice.wire.Json;

/**
 * A stored team as the team API shows it, in the field names of LiteLLM's
 * {@code LiteLLM_TeamTable}, with Sluice's {@code router_settings}. Unset values are
 * {@code null}; times are ISO-8601 instants. A team's {@code model_aliases} are shown where
 * LiteLLM shows them, in {@code litellm_model_table.model_aliases}; a team with none has a
 * {@code null} table, as a LiteLLM team that was never given any.
 */
final class TeamView {
    private TeamView() {}

    static ObjectNode of(Team team) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("team_id", team.teamId());
        view.put("team_alias", team.teamAlias().orElse(null));
        ArrayNode models = view.putArray("models");
        team.models().forEach(models::add);
        AccountFields.spendAndMax(view, team.budget());
        AccountFields.period(view, team.budget());
        AccountFields.rateLimits(view, team.limits());
        view.put("organization_id", team.organizationId().orElse(null));
        view.set("router_settings", team.routerSettings());
        view.set("metadata", team.metadata());
        if (team.modelAliases().isEmpty()) {
            view.putNull("litellm_model_table");
        } else {
            ObjectNode aliases = view.putObject("litellm_model_table").putObject("model_aliases");
            team.modelAliases().forEach(aliases::put);
        }
        view.put("created_at", team.createdAt().toString());
        return view;
    }
}
