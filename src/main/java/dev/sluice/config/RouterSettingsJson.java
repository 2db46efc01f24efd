package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The effective router settings as JSON, for {@code GET /router/settings}: every setting with
 * its value and where the value came from, in the order {@code check-config} prints them.
 * Secrets are masked with {@link Secret#masked()}.
 *
 * <p>Sources, as an operator names them: {@code config file} (from {@code router_settings},
 * or from {@code litellm_settings}; {@code config_key} says which key), {@code database} (stored
 * through the router settings API), {@code default}, or {@code environment} (a
 * {@code REDIS_*} variable).
 */
public final class RouterSettingsJson {
    public static final String CONFIG_FILE = "config file";
    public static final String DATABASE = RouterSettingOverrides.FROM_DATABASE;
    public static final String DEFAULT = RouterSettingsParser.FROM_DEFAULT;
    public static final String ENVIRONMENT = RouterSettingsParser.FROM_ENVIRONMENT;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private RouterSettingsJson() {}

    /** Every setting's value, by name, in {@code check-config}'s order. */
    public static Map<String, JsonNode> values(RouterSettings router) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        values.put("routing_strategy", TextNode.valueOf(router.routing().routingStrategy()));
        values.put("num_retries", IntNode.valueOf(router.retries().numRetries()));
        values.put("timeout", SettingJson.seconds(router.timeouts().timeout()));
        values.put("stream_timeout", router.timeouts().streamTimeout().map(SettingJson::seconds).orElse(NullNode.getInstance()));
        values.put("max_client_num_retries", IntNode.valueOf(router.retries().maxClientNumRetries()));
        values.put("max_client_timeout", SettingJson.seconds(router.timeouts().maxClientTimeout()));
        values.put("allowed_fails", IntNode.valueOf(router.cooldowns().allowedFails()));
        values.put("cooldown_time", SettingJson.seconds(router.cooldowns().cooldownTime()));
        values.put("disable_cooldowns", BooleanNode.valueOf(router.cooldowns().disableCooldowns()));
        values.put("fallbacks", SettingJson.fallbackList(router.fallbacks().fallbacks()));
        values.put("context_window_fallbacks", SettingJson.fallbackList(router.fallbacks().contextWindowFallbacks()));
        values.put("content_policy_fallbacks", SettingJson.fallbackList(router.fallbacks().contentPolicyFallbacks()));
        values.put("default_fallbacks", SettingJson.strings(router.fallbacks().defaultFallbacks()));
        values.put("max_fallbacks", IntNode.valueOf(router.fallbacks().maxFallbacks()));
        values.put("retry_policy", plain(router.retries().retryPolicy()));
        values.put("model_group_retry_policy", plain(router.retries().modelGroupRetryPolicy()));
        values.put("allowed_fails_policy", plain(router.cooldowns().allowedFailsPolicy()));
        values.put("enable_pre_call_checks", BooleanNode.valueOf(router.preCallChecks().enablePreCallChecks()));
        values.put("optional_pre_call_checks", SettingJson.strings(router.preCallChecks().optionalPreCallChecks()));
        values.put("enable_tag_filtering", BooleanNode.valueOf(router.preCallChecks().enableTagFiltering()));
        values.put("tag_filtering_match_any", BooleanNode.valueOf(router.preCallChecks().tagFilteringMatchAny()));
        values.put("routing_strategy_args", plain(router.routing().routingStrategyArgs()));
        values.put("redis_host", text(router.redis().redisHost()));
        values.put("redis_port", number(router.redis().redisPort()));
        values.put("redis_password", text(router.redis().redisPassword().map(Secret::masked)));
        values.put("redis_db", number(router.redis().redisDb()));
        values.put("redis_url", text(router.redis().redisUrl().map(Secret::masked)));
        values.put("redis_key_prefix", TextNode.valueOf(router.redis().redisKeyPrefix()));
        values.put("redis_socket_timeout", router.redis().redisSocketTimeout().map(SettingJson::seconds).orElse(NullNode.getInstance()));
        return values;
    }

    /** Where a setting's value came from, as {@code GET /router/settings} names it. */
    public static String source(RouterSettings router, String name) {
        String source = router.sources().getOrDefault(name, RouterSettingsParser.FROM_DEFAULT);
        return switch (source) {
            case RouterSettingsParser.FROM_ROUTER, RouterSettingsParser.FROM_LITELLM -> CONFIG_FILE;
            default -> source;
        };
    }

    /** The config file's key a setting was read from ({@code litellm_settings.request_timeout}), when it came from the file. */
    public static Optional<String> configKey(RouterSettings router, String name) {
        String source = router.sources().getOrDefault(name, RouterSettingsParser.FROM_DEFAULT);
        return switch (source) {
            case RouterSettingsParser.FROM_ROUTER -> Optional.of(RouterSettingsParser.FROM_ROUTER + "." + name);
            case RouterSettingsParser.FROM_LITELLM ->
                    Optional.of(RouterSettingsParser.FROM_LITELLM + "." + LitellmSettingsOverlap.litellmName(name).orElse(name));
            default -> Optional.empty();
        };
    }

    private static JsonNode text(Optional<String> value) {
        return value.<JsonNode>map(TextNode::valueOf).orElse(NullNode.getInstance());
    }

    private static JsonNode number(OptionalInt value) {
        return value.isPresent() ? IntNode.valueOf(value.getAsInt()) : NullNode.getInstance();
    }

    /** Maps, lists and scalars as written (routing_strategy_args, the policies). */
    private static JsonNode plain(Object value) {
        return switch (value) {
            case null -> NullNode.getInstance();
            case Map<?, ?> map -> {
                ObjectNode object = JSON.objectNode();
                map.forEach((key, inner) -> object.set(String.valueOf(key), plain(inner)));
                yield object;
            }
            case List<?> list -> {
                var array = JSON.arrayNode();
                list.forEach(item -> array.add(plain(item)));
                yield array;
            }
            case Integer i -> IntNode.valueOf(i);
            case Number n -> JSON.numberNode(new java.math.BigDecimal(n.toString()));
            case Boolean b -> BooleanNode.valueOf(b);
            default -> TextNode.valueOf(String.valueOf(value));
        };
    }
}
