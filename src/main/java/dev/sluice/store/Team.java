package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A team as stored: the limits and budget its keys share, and its spend so far. Field
 * names follow LiteLLM's {@code LiteLLM_TeamTable}. Immutable; {@link #toBuilder()} makes
 * a changed copy.
 *
 * @param models         model groups the team's keys may call; empty allows every group
 * @param budget         what the team may spend per budget period, and its spend so far
 * @param limits         the team's rpm and tpm limits, shared by its keys
 * @param routerSettings the team's {@code router_settings} JSON object (e.g. deployment weights)
 * @param metadata       the owner's JSON object, kept as given
 * @param organizationId the organization the team belongs to, whose models bound the team's and whose budget its calls share
 * @param modelAliases   names the team's keys may send in {@code model}, each to the model it stands for
 */
public record Team(
        String teamId,
        Optional<String> teamAlias,
        List<String> models,
        AccountBudget budget,
        AccountLimits limits,
        ObjectNode routerSettings,
        ObjectNode metadata,
        Instant createdAt,
        Optional<String> organizationId,
        Map<String, String> modelAliases) implements BudgetHolder {

    public Team {
        Objects.requireNonNull(teamId, "teamId");
        if (teamId.isBlank()) {
            throw new IllegalArgumentException("team_id: \"" + teamId + "\" (expected: a non-blank id)");
        }
        Objects.requireNonNull(teamAlias, "teamAlias");
        models = Frozen.list("models", models);
        Objects.requireNonNull(budget, "budget");
        limits = Objects.requireNonNull(limits, "limits").withoutParallelLimit("teams");
        routerSettings = Frozen.object(routerSettings);
        metadata = Frozen.object(metadata);
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
        Objects.requireNonNull(organizationId, "organizationId");
        modelAliases = Frozen.map("model_aliases", modelAliases);
    }

    /** A copy: the record stays unchanged whatever the caller does with it. */
    @Override
    public ObjectNode routerSettings() {
        return routerSettings.deepCopy();
    }

    /** A copy: the record stays unchanged whatever the caller does with it. */
    @Override
    public ObjectNode metadata() {
        return metadata.deepCopy();
    }

    /**
     * The text entries of {@code metadata.tags}: tags every call through this team carries.
     * Read without copying the whole metadata, as it is on every call.
     */
    public List<String> metadataTags() {
        return Json.texts(metadata.get("tags"));
    }

    /** A team with no limits, no budget and no spend: set what it needs on the builder. */
    public static Builder builder(String teamId, Instant createdAt) {
        return new Builder(teamId, createdAt);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Builds a {@link Team}; values are checked by {@link #build()}. A setter given
     * {@code null} clears the value.
     */
    public static final class Builder extends BudgetHolder.Builder<Builder> {
        private String teamId;
        private String teamAlias;
        private ObjectNode routerSettings;
        private String organizationId;
        private Map<String, String> modelAliases = Map.of();

        private Builder(String teamId, Instant createdAt) {
            super(createdAt);
            this.teamId = teamId;
        }

        private Builder(Team team) {
            super(team);
            teamId = team.teamId;
            teamAlias = team.teamAlias.orElse(null);
            routerSettings = team.routerSettings;
            organizationId = team.organizationId.orElse(null);
            modelAliases = team.modelAliases;
        }

        public Builder teamId(String teamId) {
            this.teamId = teamId;
            return this;
        }

        public Builder teamAlias(String teamAlias) {
            this.teamAlias = teamAlias;
            return this;
        }

        public Builder routerSettings(ObjectNode routerSettings) {
            this.routerSettings = routerSettings;
            return this;
        }

        public Builder organizationId(String organizationId) {
            this.organizationId = organizationId;
            return this;
        }

        public Builder modelAliases(Map<String, String> modelAliases) {
            this.modelAliases = modelAliases == null ? Map.of() : modelAliases;
            return this;
        }

        /** @throws IllegalArgumentException naming the field, the value and the rule it breaks */
        public Team build() {
            return new Team(teamId, Optional.ofNullable(teamAlias), models, budget(), limits(null), routerSettings, metadata,
                    createdAt, Optional.ofNullable(organizationId), modelAliases);
        }
    }
}
