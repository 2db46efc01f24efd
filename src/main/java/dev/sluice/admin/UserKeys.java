package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.json.Json;
import dev.sluice.store.VirtualKey;
import java.time.Instant;

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

    UserKeys(AccountApi api) {
        this.api = api;
    }

    /** Makes and stores the key; its view, with the key itself under {@code key}, shown this once. */
    ObjectNode generate(ObjectNode body, String userId, WrittenAccounts written) {
        Instant now = api.clock().instant();
        String key = NewKeys.generate();
        String token = VirtualKey.hash(key);
        ObjectNode settings = body.deepCopy();
        settings.remove(USER_FIELDS);
        settings.put("user_id", userId);
        VirtualKey.Builder builder = VirtualKey.builder(token, VirtualKey.maskedName(key), now);
        KeySettings.apply(settings, builder, now, api.clock().getZone());
        VirtualKey created = KeySettings.build(builder);
        api.keys().insert(created);
        written.key(token);
        ObjectNode answer = Json.MAPPER.createObjectNode().put("key", key);
        answer.setAll(KeyView.of(created));
        return answer;
    }
}
