package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.VirtualKey;
import dev.sluice.wire.Json;
import java.time.Instant;
import java.util.Optional;

/**
 * A stored key as the key API shows it, in the field names of LiteLLM's
 * {@code LiteLLM_VerificationToken}: {@code token} (the SHA-256 the store keeps, usable
 * wherever the API takes a key), the masked {@code key_name}, limits, budgets and spend.
 * Never the key itself: only {@code /key/generate} shows that, once. Unset values are
 * {@code null}; times are ISO-8601 instants.
 */
final class KeyView {
    private KeyView() {}

    static ObjectNode of(VirtualKey key) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("token", key.tokenHash());
        // LiteLLM answers the stored token's id as token_id too.
        view.put("token_id", key.tokenHash());
        view.put("key_name", key.keyName());
        view.put("key_alias", key.keyAlias().orElse(null));
        AccountFields.spendAndMax(view, key.budget());
        view.put("expires", time(key.lifetime().expiresAt()));
        ArrayNode models = view.putArray("models");
        key.models().forEach(models::add);
        view.put("user_id", key.owner().userId().orElse(null));
        view.put("team_id", key.owner().teamId().orElse(null));
        AccountFields.maxParallelRequests(view, key.limits());
        view.set("metadata", key.metadata());
        AccountFields.rateLimits(view, key.limits());
        AccountFields.period(view, key.budget());
        ObjectNode budgets = view.putObject("model_max_budget");
        key.modelLimits().modelMaxBudget().forEach((group, budget) -> budgets.putObject(group)
                .put("budget_limit", Dollars.shown(budget.budgetLimit()))
                .put("time_period", budget.timePeriod().orElse(null)));
        ObjectNode rpm = view.putObject("model_rpm_limit");
        key.modelLimits().modelRpmLimit().forEach(rpm::put);
        ObjectNode tpm = view.putObject("model_tpm_limit");
        key.modelLimits().modelTpmLimit().forEach(tpm::put);
        ObjectNode aliases = view.putObject("aliases");
        key.aliases().forEach(aliases::put);
        view.put("blocked", key.blocked());
        view.put("created_at", key.createdAt().toString());
        view.put("updated_at", key.lifetime().updatedAt().toString());
        return view;
    }

    static String time(Optional<Instant> instant) {
        return instant.map(Instant::toString).orElse(null);
    }
}
