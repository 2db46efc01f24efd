package dev.sluice.accounts.settings;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.AccountTimes;
import dev.sluice.store.Team;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonFields;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The settings of a team that {@code /team/new} and {@code /team/update} take, in
 * LiteLLM's field names, read from a body onto a team's builder. Only fields present
 * change; {@code null} clears one. Fields LiteLLM has and Sluice does not
 * ({@code members_with_roles}, {@code tags}, ...) are ignored and never stored.
 */
public final class TeamSettings {
    private TeamSettings() {}

    /** Sets on {@code team} each setting {@code body} holds; setting {@code budget_duration} starts a new period now. */
    public static void apply(ObjectNode body, Team.Builder team, Instant now, ZoneId zone) {
        JsonFields.ifPresent(body, "team_alias", JsonFields::name, team::teamAlias);
        JsonFields.ifPresent(body, "models", JsonFields::names, team::models);
        JsonFields.ifPresent(body, "max_budget", JsonFields::dollars, team::maxBudget);
        JsonFields.ifPresent(body, "budget_duration", JsonFields::duration, period -> {
            team.budgetDuration(period == null ? null : period.toString());
            team.budgetResetAt(period == null ? null
                    : AccountTimes.nextReset(period, now, zone, "budget_duration", body.get("budget_duration")));
        });
        JsonFields.ifPresent(body, "rpm_limit", JsonFields::count, team::rpmLimit);
        JsonFields.ifPresent(body, "tpm_limit", JsonFields::count, team::tpmLimit);
        JsonFields.ifPresent(body, TeamRouting.FIELD, TeamRouting::check, team::routerSettings);
        JsonFields.ifPresent(body, "metadata", JsonFields::object, team::metadata);
        JsonFields.ifPresent(body, "model_aliases", ModelAliases::read, team::modelAliases);
    }

    /** Builds the team; a rule broken here is still the request's fault, answered as a 400. */
    public static Team build(Team.Builder team) {
        try {
            return team.build();
        } catch (IllegalArgumentException e) {
            throw ApiError.invalidRequest("The team is not valid: " + e.getMessage() + ".", null, "invalid_value");
        }
    }
}
