package dev.sluice.config;

import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads {@code router_settings} together with the overlapping keys of
 * {@code litellm_settings} ({@link LitellmSettingsOverlap}) and fills in defaults,
 * noting for every key where its value came from.
 *
 * <p>A {@code litellm_settings} value that {@code router_settings} overrides is still
 * validated: a wrong value is wrong wherever it is written.
 */
final class RouterSettingsParser {
    static final String FROM_ROUTER = "router_settings";
    static final String FROM_LITELLM = "litellm_settings";
    static final String FROM_DEFAULT = "default";
    /** Redis settings may come from REDIS_HOST, REDIS_PORT, REDIS_PASSWORD and REDIS_SOCKET_TIMEOUT, as in LiteLLM's proxy. */
    static final String FROM_ENVIRONMENT = "environment";

    /** LiteLLM's names for {@code optional_pre_call_checks}; {@link NotYetActedOn#PRE_CALL_CHECKS} says which Sluice runs. */
    static final List<String> PRE_CALL_CHECKS = List.of(
            "prompt_caching",
            "router_budget_limiting",
            "responses_api_deployment_check",
            "deployment_affinity",
            "session_affinity",
            "forward_client_headers_by_model_group",
            "enforce_model_rate_limits",
            "encrypted_content_affinity");

    static final String DEFAULT_ROUTING_STRATEGY = "simple-shuffle";
    static final int DEFAULT_NUM_RETRIES = 2;
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(600);
    static final int DEFAULT_ALLOWED_FAILS = 3;
    static final Duration DEFAULT_COOLDOWN_TIME = Duration.ofSeconds(5);
    static final int DEFAULT_MAX_FALLBACKS = 5;
    static final int DEFAULT_MAX_CLIENT_NUM_RETRIES = 5;
    static final String DEFAULT_REDIS_KEY_PREFIX = "sluice:";

    private final FieldReader read;
    private final IgnoredKeys ignored;
    private final EnvResolver env;
    private final Map<String, String> sources = new LinkedHashMap<>();
    private Section router;
    private Section litellm;
    private boolean jsonLogs;
    private boolean dropParams;
    private ConfigNode requireAuthForMetrics;
    private CacheSettings cache = CacheSettings.OFF;
    private CallbackSettings callbacks = CallbackSettings.NONE;

    RouterSettingsParser(FieldReader read, IgnoredKeys ignored, EnvResolver env) {
        this.read = read;
        this.ignored = ignored;
        this.env = env;
    }

    RouterSettings parse(ConfigNode routerSettings, ConfigNode litellmSettings, Set<String> groups) {
        router = Section.open(routerSettings, ignored, read.problems(), "a map");
        litellm = Section.open(litellmSettings, ignored, read.problems(), "a map");
        RouterVocabulary vocabulary = new RouterVocabulary(fallbackTargets(groups, routerSettings.get("model_group_alias")));

        String routingStrategy = shared("routing_strategy", vocabulary::routingStrategy)
                .orElse(DEFAULT_ROUTING_STRATEGY);
        ConfigNode strategyNode = routerSettings.get("routing_strategy");
        if (!strategyNode.isAbsent() && !NotYetActedOn.ROUTING_STRATEGIES.contains(routingStrategy)) {
            ignored.notActedOn(strategyNode);
        }

        int numRetries = shared("num_retries", vocabulary::count).orElse(DEFAULT_NUM_RETRIES);
        Duration timeout = shared("timeout", vocabulary::timeout).orElse(DEFAULT_TIMEOUT);
        // Read in check-config's order, which is the order problems and sources are listed in.
        Optional<Duration> streamTimeout = setting("stream_timeout", read::positiveSeconds);
        int maxClientNumRetries = setting("max_client_num_retries", node -> boxed(read.nonNegativeInt(node)))
                .orElse(DEFAULT_MAX_CLIENT_NUM_RETRIES);
        TimeoutSettings timeouts = new TimeoutSettings(timeout, streamTimeout,
                setting("max_client_timeout", read::positiveSeconds).orElse(timeout));
        int allowedFails = shared("allowed_fails", vocabulary::count).orElse(DEFAULT_ALLOWED_FAILS);
        Duration cooldownTime = shared("cooldown_time", vocabulary::cooldownTime).orElse(DEFAULT_COOLDOWN_TIME);
        boolean disableCooldowns = setting("disable_cooldowns", read::bool).orElse(false);
        FallbackSettings fallbacks = new FallbackSettings(
                shared("fallbacks", vocabulary::fallbacks).orElse(Map.of()),
                shared("context_window_fallbacks", vocabulary::fallbacks).orElse(Map.of()),
                shared("content_policy_fallbacks", vocabulary::fallbacks).orElse(Map.of()),
                shared("default_fallbacks", vocabulary::targets).orElse(List.of()),
                setting("max_fallbacks", node -> boxed(read.nonNegativeInt(node))).orElse(DEFAULT_MAX_FALLBACKS));
        RetrySettings retries = new RetrySettings(numRetries, maxClientNumRetries,
                shared("retry_policy", written -> present(written, vocabulary.retryPolicy(written))).orElse(Map.of()),
                shared("model_group_retry_policy", written -> present(written, vocabulary.modelGroupRetryPolicy(written)))
                        .orElse(Map.of()));
        CooldownSettings cooldowns = new CooldownSettings(allowedFails, cooldownTime, disableCooldowns,
                shared("allowed_fails_policy", written -> present(written, vocabulary.allowedFailsPolicy(written)))
                        .orElse(Map.of()));
        PreCallCheckSettings preCallChecks = new PreCallCheckSettings(
                setting("enable_pre_call_checks", read::bool).orElse(false),
                setting("optional_pre_call_checks", this::preCallChecks).orElse(List.of()),
                shared("enable_tag_filtering", vocabulary::flag).orElse(false),
                setting("tag_filtering_match_any", read::bool).orElse(true));
        Map<String, Object> strategyArgs = setting("routing_strategy_args", read::plainMap).orElse(Map.of());
        RedisSettings redis = new RedisSettings(
                settingOrEnv("redis_host", FallbackVariables.REDIS_HOST, read::string),
                unboxed(settingOrEnv("redis_port", FallbackVariables.REDIS_PORT, node -> boxed(read.intBetween(node, 1, 65535)))),
                settingOrEnv("redis_password", FallbackVariables.REDIS_PASSWORD, read::secret),
                unboxed(setting("redis_db", node -> boxed(read.nonNegativeInt(node)))),
                setting("redis_url", read::secret),
                setting("redis_key_prefix", read::string).orElse(DEFAULT_REDIS_KEY_PREFIX),
                settingOrEnv("redis_socket_timeout", FallbackVariables.REDIS_SOCKET_TIMEOUT, read::positiveSeconds));
        RoutingSettings routing = new RoutingSettings(routingStrategy, strategyArgs,
                setting("model_group_alias", this::groupAliases).orElse(Map.of()));
        RouterSettings settings = new RouterSettings(routing, preCallChecks, retries, timeouts, cooldowns, fallbacks, redis,
                Collections.unmodifiableMap(new LinkedHashMap<>(sources)));
        // Not a router setting, but litellm_settings is read here, and an untaken key would be listed as ignored.
        jsonLogs = read.bool(litellm.take("json_logs")).orElse(false);
        dropParams = read.bool(litellm.take("drop_params")).orElse(false);
        requireAuthForMetrics = litellm.take("require_auth_for_metrics_endpoint"); // read with general_settings.public_metrics
        cache = new CacheSettingsParser(read, ignored, env).parse(litellm.take("cache"), litellm.take("cache_params"),
                redis.redisHost().isPresent() || redis.redisUrl().isPresent());
        callbacks = new CallbackSettingsParser(read, ignored, env).parse(litellm);
        router.finish();
        litellm.finish();
        return settings;
    }

    /**
     * {@code litellm_settings.drop_params}, after {@link #parse}: whether a parameter a
     * deployment's vendor cannot take is left out of every call rather than refused, for the
     * deployments that do not say.
     */
    boolean dropParams() {
        return dropParams;
    }

    /** {@code litellm_settings.require_auth_for_metrics_endpoint} as written, after {@link #parse}. */
    ConfigNode requireAuthForMetrics() {
        return requireAuthForMetrics;
    }

    /** {@code litellm_settings.cache} and {@code cache_params}, after {@link #parse}. */
    CacheSettings cache() {
        return cache;
    }

    /** The logging callbacks of {@code litellm_settings}, after {@link #parse}. */
    CallbackSettings callbacks() {
        return callbacks;
    }

    /** {@code litellm_settings.json_logs}, after {@link #parse}: whether the log is written as JSON lines. */
    boolean jsonLogs() {
        return jsonLogs;
    }

    /**
     * {@code optional_pre_call_checks}: each one of LiteLLM's check names, once. A name
     * Sluice does not run yet is listed among the ignored keys; an unknown one is a problem.
     */
    private Optional<List<String>> preCallChecks(ConfigNode node) {
        if (node.isAbsent()) {
            return Optional.empty();
        }
        String rule = "one of " + String.join(", ", PRE_CALL_CHECKS);
        if (!node.isList()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a list of pre-call checks, each " + rule);
            return Optional.empty();
        }
        Set<String> checks = new LinkedHashSet<>();
        for (ConfigNode item : node.items()) {
            if (item.isAbsent()) {
                read.problems().add(item, ShownValue.of(item.value(), false), rule);
                continue;
            }
            read.oneOf(item, PRE_CALL_CHECKS).ifPresent(check -> {
                checks.add(check);
                if (!NotYetActedOn.PRE_CALL_CHECKS.contains(check)) {
                    ignored.notActedOn(item);
                }
            });
        }
        return Optional.of(List.copyOf(checks));
    }

    /**
     * The names a fallback may target: the groups, and the {@code model_group_alias} names,
     * which a fallback is resolved through as a request's model is. None when groups are not checked.
     */
    private static Set<String> fallbackTargets(Set<String> groups, ConfigNode aliases) {
        if (groups.isEmpty() || !aliases.isMap()) {
            return groups;
        }
        Set<String> names = new LinkedHashSet<>(groups);
        for (Map.Entry<String, ConfigNode> alias : aliases.entries()) {
            names.add(alias.getKey());
        }
        return names;
    }

    /**
     * {@code model_group_alias}: each alias to a group name, or to {@code {model, hidden}}.
     * Whether the group exists is not checked: a group may be added later through the model API.
     */
    private Optional<Map<String, GroupAlias>> groupAliases(ConfigNode node) {
        if (node.isAbsent()) {
            return Optional.empty();
        }
        String rule = "a model group name, or a map with model (a model group name) and hidden (true or false)";
        if (!node.isMap()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a map of alias to " + rule);
            return Optional.empty();
        }
        Map<String, GroupAlias> aliases = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> entry : node.entries()) {
            ConfigNode target = entry.getValue();
            if (target.isMap()) {
                Section alias = Section.open(target, ignored, read.problems(), rule);
                Optional<String> model = read.requiredString(alias.take("model"));
                boolean hidden = read.bool(alias.take("hidden")).orElse(false);
                alias.finish();
                model.ifPresent(group -> aliases.put(entry.getKey(), new GroupAlias(group, hidden)));
            } else if (target.isAbsent()) {
                read.problems().missing(target, rule);
            } else {
                read.string(target).ifPresent(group -> aliases.put(entry.getKey(), new GroupAlias(group, false)));
            }
        }
        return Optional.of(Collections.unmodifiableMap(aliases));
    }

    /** The value of one router setting: router_settings, else litellm_settings, else none. */
    private <T> Optional<T> setting(String key, Function<ConfigNode, Optional<T>> reader) {
        ConfigNode fromRouter = router.take(key);
        Optional<T> routerValue = reader.apply(fromRouter);
        Optional<String> litellmName = LitellmSettingsOverlap.litellmName(key);
        if (litellmName.isPresent()) {
            ConfigNode fromLitellm = litellm.take(litellmName.get());
            Optional<T> litellmValue = reader.apply(fromLitellm);
            if (fromRouter.isAbsent() && !fromLitellm.isAbsent()) {
                sources.put(key, FROM_LITELLM);
                return litellmValue;
            }
        }
        sources.put(key, fromRouter.isAbsent() ? FROM_DEFAULT : FROM_ROUTER);
        return routerValue;
    }

    /** Like {@link #setting}, for a key of the vocabulary every source of router settings shares. */
    private <T> Optional<T> shared(String key, Function<Written, Optional<T>> reader) {
        return setting(key, node -> reader.apply(read.written(node)));
    }

    /** Like {@link #setting}, but an unset key reads the variable, as if written {@code os.environ/VARIABLE}. */
    private <T> Optional<T> settingOrEnv(String key, String variable, Function<ConfigNode, Optional<T>> reader) {
        Optional<T> value = setting(key, reader);
        ConfigNode written = router.node().get(key);
        if (!written.isAbsent() || !env.isSet(variable)) {
            return value;
        }
        sources.put(key, FROM_ENVIRONMENT);
        return reader.apply(written.withValue(TextNode.valueOf(EnvResolver.PREFIX + variable)));
    }

    /** A map-valued setting that was written counts as set even when it is empty. */
    private static <T> Optional<T> present(Written node, T value) {
        return node.isAbsent() ? Optional.empty() : Optional.of(value);
    }

    private static Optional<Integer> boxed(OptionalInt value) {
        return value.isPresent() ? Optional.of(value.getAsInt()) : Optional.empty();
    }

    private static OptionalInt unboxed(Optional<Integer> value) {
        return value.map(OptionalInt::of).orElse(OptionalInt.empty());
    }
}
