package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.StoreException;
import dev.sluice.store.VirtualKey;
import dev.sluice.wire.Json;
import java.time.Instant;
import java.util.Optional;

/**
 * The key {@code /user/new} makes for a new user, as LiteLLM does: owned by the user, with the
 * key settings the body holds besides the user's ({@code key_alias}, {@code duration},
 * {@code team_id}, ...). The user's own budget, models and limits are not copied onto it:
 * they apply to every key of the user already.
 */
final class UserKeys {
    /** User settings that {@link KeySettings} would otherwise also put on the key. */
    private static final java.util.List<String> USER_FIELDS = java.util.List.of("models", "max_budget", "budget_duration",
            "rpm_limit", "tpm_limit", "max_parallel_requests", "metadata");

    private final AccountApi api;
    private final KeyRules rules;

    UserKeys(AccountApi api) {
        this.api = api;
        this.rules = new KeyRules(api);
    }

    /** A user's new key, built and checked but not stored: the key itself, shown once, and its row. */
    record Prepared(String key, VirtualKey row) {}

    /**
     * Builds the key {@code body} asks for and checks it as {@code /key/generate} would (its
     * settings, its team, its alias), before the user is stored: a refused key leaves no user
     * behind.
     */
    Prepared prepare(ObjectNode body, String userId) {
        Instant now = api.clock().instant();
        String key = NewKeys.generate();
        ObjectNode settings = body.deepCopy();
        settings.remove(USER_FIELDS);
        settings.put("user_id", userId);
        VirtualKey.Builder builder = VirtualKey.builder(VirtualKey.hash(key), VirtualKey.maskedName(key), now);
        KeySettings.apply(settings, builder, now, api.clock().getZone());
        VirtualKey row = KeySettings.build(builder);
        rules.requireTeam(row, Optional.empty());
        rules.requireFreeAlias(row);
        return new Prepared(key, row);
    }

    /** Stores a prepared key; its view, with the key itself under {@code key}, shown this once. */
    ObjectNode store(Prepared prepared, WrittenAccounts written) {
        try {
            api.keys().insert(prepared.row());
        } catch (StoreException e) {
            throw rules.conflict(e, prepared.row());
        }
        written.key(prepared.row().tokenHash());
        ObjectNode answer = Json.MAPPER.createObjectNode().put("key", prepared.key());
        answer.setAll(KeyView.of(prepared.row()));
        return answer;
    }
}
