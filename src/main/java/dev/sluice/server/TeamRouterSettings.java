package dev.sluice.server;

import dev.sluice.http.JsonFields;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ApiError;
import dev.sluice.router.strategy.Strategies;
import java.util.Map;
import java.util.Map.Entry;

/**
 * A team's {@code router_settings}: how the router treats the team's traffic differently
 * from the config's {@code router_settings}. Checked here for shape only, each wrong value
 * refused with a 400 naming its path ({@code router_settings.num_retries}); model groups
 * and deployment ids are not checked against the model list, since a team may be set up
 * before its models are added.
 *
 * <ul>
 *   <li>{@code routing_strategy}: one of LiteLLM's strategy names;
 *   <li>{@code num_retries}: a whole number >= 0;
 *   <li>{@code timeout}: seconds, > 0;
 *   <li>{@code fallbacks}, {@code context_window_fallbacks}, {@code content_policy_fallbacks}:
 *       in the config's form, {@code [{"gpt-4o": ["gpt-4o-mini"]}]};
 *   <li>{@code deployment_weights}: Sluice's own, {@code {"<deployment id>": weight}} with
 *       weights >= 0, a weight per deployment for this team's calls (0: a backup, used only
 *       when the others cannot be).
 * </ul>
 */
final class TeamRouterSettings {
    static final String FIELD = "router_settings";

    /** Checks one setting's value found at a path. */
    @FunctionalInterface
    private interface Check {
        void check(JsonNode value, String path);
    }

    private static final Map<String, Check> SETTINGS = Map.of(
            "routing_strategy", TeamRouterSettings::strategy,
            "num_retries", JsonFields::smallCount,
            "timeout", TeamRouterSettings::seconds,
            "fallbacks", TeamRouterSettings::fallbacks,
            "context_window_fallbacks", TeamRouterSettings::fallbacks,
            "content_policy_fallbacks", TeamRouterSettings::fallbacks,
            "deployment_weights", TeamRouterSettings::weights);

    private TeamRouterSettings() {}

    /** The settings as given, once every one is known and well-formed. */
    static ObjectNode read(JsonNode value, String path) {
        ObjectNode settings = JsonFields.object(value, path);
        for (Entry<String, JsonNode> entry : settings.properties()) {
            String settingPath = path + "." + entry.getKey();
            Check check = SETTINGS.get(entry.getKey());
            if (check == null) {
                throw ApiError.invalidRequest("Invalid '" + settingPath + "': not a team router setting (expected one of: "
                        + String.join(", ", SETTINGS.keySet().stream().sorted().toList()) + ").", settingPath,
                        "unknown_setting");
            }
            check.check(entry.getValue(), settingPath);
        }
        return settings;
    }

    private static void strategy(JsonNode value, String path) {
        if (!value.isTextual() || !Strategies.NAMES.contains(value.textValue())) {
            throw JsonFields.invalid(path, value, "one of " + String.join(", ", Strategies.NAMES));
        }
    }

    private static void seconds(JsonNode value, String path) {
        if (!value.isNumber() || !(value.doubleValue() > 0) || !Double.isFinite(value.doubleValue())) {
            throw JsonFields.invalid(path, value, "a number of seconds > 0");
        }
    }

    /** {@code [{"gpt-4o": ["gpt-4o-mini", "claude"]}]}: each item one group and the groups it falls back to. */
    private static void fallbacks(JsonNode value, String path) {
        String form = "a list of single-key objects like {\"gpt-4o\": [\"gpt-4o-mini\"]}";
        if (!value.isArray()) {
            throw JsonFields.invalidType(path, value, form);
        }
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            String itemPath = path + "[" + i + "]";
            if (!item.isObject() || item.size() != 1) {
                throw JsonFields.invalid(itemPath, item, "an object with exactly one key: a model group and its fallback groups");
            }
            Entry<String, JsonNode> entry = item.properties().iterator().next();
            if (entry.getKey().isBlank()) {
                throw JsonFields.invalid(itemPath, item, "a model group name as the key");
            }
            JsonFields.names(entry.getValue(), itemPath + "." + entry.getKey());
        }
    }

    /** The largest weight: enough for any ratio, and no sum of weights can overflow to infinity. */
    static final double MAX_WEIGHT = 1_000_000;

    private static void weights(JsonNode value, String path) {
        ObjectNode weights = JsonFields.object(value, path);
        for (Entry<String, JsonNode> entry : weights.properties()) {
            String weightPath = path + "." + entry.getKey();
            if (entry.getKey().isBlank()) {
                throw JsonFields.invalid(path, value, "deployment ids as keys");
            }
            JsonNode weight = entry.getValue();
            if (!weight.isNumber() || !(weight.doubleValue() >= 0) || weight.doubleValue() > MAX_WEIGHT) {
                throw JsonFields.invalid(weightPath, weight, "a weight from 0 to 1000000");
            }
        }
    }
}
