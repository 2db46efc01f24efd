package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.AccountTimes;
import dev.sluice.accounts.settings.ModelAliases;
import dev.sluice.store.ModelBudget;
import dev.sluice.store.VirtualKey;
import dev.sluice.time.BudgetDuration;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonFields;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Optional;

/**
 * The settings of a key that {@code /key/generate} and {@code /key/update} take, in
 * LiteLLM's field names, read from a body onto a key's builder. Only fields present
 * change; {@code null} clears one (no budget, no limit, no expiry, all models). Fields
 * LiteLLM has and Sluice does not ({@code permissions}, {@code tags},
 * ...) are ignored, as LiteLLM ignores fields it does not know, and never stored.
 */
final class KeySettings {
    private KeySettings() {}

    /**
     * Sets on {@code key} each setting {@code body} holds. Setting {@code budget_duration}
     * starts a new budget period now; setting {@code duration} makes the key expire that
     * long from now.
     */
    static void apply(ObjectNode body, VirtualKey.Builder key, Instant now, ZoneId zone) {
        JsonFields.ifPresent(body, "key_alias", JsonFields::name, key::keyAlias);
        JsonFields.ifPresent(body, "team_id", JsonFields::name, key::teamId);
        JsonFields.ifPresent(body, "user_id", JsonFields::name, key::userId);
        JsonFields.ifPresent(body, "models", JsonFields::names, key::models);
        OwnerSettings.budget(body, key, now, zone);
        JsonFields.ifPresent(body, "max_parallel_requests", JsonFields::smallCount, key::maxParallelRequests);
        JsonFields.ifPresent(body, "model_max_budget", KeySettings::modelBudgets, key::modelMaxBudget);
        JsonFields.ifPresent(body, "model_rpm_limit", KeySettings::modelLimits, key::modelRpmLimit);
        JsonFields.ifPresent(body, "model_tpm_limit", KeySettings::modelLimits, key::modelTpmLimit);
        JsonFields.ifPresent(body, "aliases", ModelAliases::read, key::aliases);
        JsonFields.ifPresent(body, "metadata", JsonFields::object, key::metadata);
        JsonFields.ifPresent(body, "duration", JsonFields::duration, lifetime -> key.expiresAt(lifetime == null ? null
                : AccountTimes.expiry(lifetime, now, zone, "duration", body.get("duration"))));
        JsonFields.ifPresent(body, "blocked", JsonFields::bool, blocked -> key.blocked(blocked != null && blocked));
    }

    /**
     * Builds the key; the settings were checked field by field, so a rule broken here is
     * still the request's fault and is answered as a 400 naming the field.
     */
    static VirtualKey build(VirtualKey.Builder key) {
        try {
            return key.build();
        } catch (IllegalArgumentException e) {
            throw ApiError.invalidRequest("The key is not valid: " + e.getMessage() + ".", null, "invalid_value");
        }
    }

    /**
     * {@code {"gpt-4o": {"budget_limit": 0.5, "time_period": "1d"}}}; LiteLLM's other
     * spelling of an entry, {@code max_budget} and {@code budget_duration}, is read too.
     */
    private static Map<String, ModelBudget> modelBudgets(JsonNode value, String path) {
        Map<String, ModelBudget> budgets = new LinkedHashMap<>();
        for (Entry<String, JsonNode> entry : groups(value, path).entrySet()) {
            String entryPath = path + "." + entry.getKey();
            if (!(entry.getValue() instanceof ObjectNode budget)) {
                throw JsonFields.invalidType(entryPath, entry.getValue(),
                        "an object like {\"budget_limit\": 0.5, \"time_period\": \"1d\"}");
            }
            String limitName = budget.has("budget_limit") || !budget.has("max_budget") ? "budget_limit" : "max_budget";
            JsonNode limit = budget.get(limitName);
            if (limit == null || limit.isNull()) {
                throw JsonFields.missing(entryPath + ".budget_limit");
            }
            BigDecimal dollars = JsonFields.dollars(limit, entryPath + "." + limitName);
            String periodName = budget.has("time_period") || !budget.has("budget_duration") ? "time_period" : "budget_duration";
            JsonNode period = budget.get(periodName);
            Optional<BudgetDuration> duration = period == null || period.isNull()
                    ? Optional.empty()
                    : Optional.of(JsonFields.duration(period, entryPath + "." + periodName));
            budgets.put(entry.getKey(), new ModelBudget(dollars, duration.map(BudgetDuration::toString)));
        }
        return budgets;
    }

    /** {@code {"gpt-4o": 100}}: a whole number >= 0 per model group. */
    private static Map<String, Long> modelLimits(JsonNode value, String path) {
        Map<String, Long> limits = new LinkedHashMap<>();
        groups(value, path).forEach((group, limit) -> limits.put(group, JsonFields.count(limit, path + "." + group)));
        return limits;
    }

    private static Map<String, JsonNode> groups(JsonNode value, String path) {
        ObjectNode object = JsonFields.object(value, path);
        Map<String, JsonNode> groups = new LinkedHashMap<>();
        for (Entry<String, JsonNode> entry : object.properties()) {
            if (entry.getKey().isBlank()) {
                throw ApiError.invalidRequest("Invalid '" + path + "': a model group name is blank (expected: model group names).",
                        path, "invalid_value");
            }
            groups.put(entry.getKey(), entry.getValue());
        }
        return groups;
    }
}
