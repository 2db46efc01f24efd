package dev.sluice.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The effective config as readable YAML, for {@code sluice check-config FILE}: every
 * deployment with its id, provider and params, the router settings each with where its
 * value came from, the general settings, the guardrails, and the keys Sluice ignores. Every secret is
 * masked with {@link Secret#masked()}.
 */
public final class ConfigPrinter {
    private ConfigPrinter() {}

    public static String print(SluiceConfig config) {
        YamlWriter yaml = new YamlWriter();
        yaml.comment(0, "Effective Sluice config. Secrets are masked.");
        modelList(yaml, config.deployments());
        router(yaml, config.router());
        general(yaml, config.general());
        guardrails(yaml, config.guardrails());
        ignoredKeys(yaml, config.ignoredKeys());
        return yaml.toString();
    }

    private static void modelList(YamlWriter yaml, List<Deployment> deployments) {
        yaml.open(0, "model_list", null);
        for (Deployment deployment : deployments) {
            LitellmParams params = deployment.params();
            yaml.item(1, "model_name", YamlWriter.string(deployment.modelName()));
            yaml.entry(2, "id", YamlWriter.string(deployment.id()),
                    deployment.info().id().isPresent() ? "model_info.id" : "derived from model_name and litellm_params");
            yaml.entry(2, "provider", YamlWriter.string(params.provider()), null);
            yaml.entry(2, "provider_model", YamlWriter.string(params.providerModel()), null);
            if (!params.endpoint().unsetVariables().isEmpty()) {
                yaml.entry(2, "unset_variables", YamlWriter.strings(params.endpoint().unsetVariables()),
                        "not set: every call to this deployment fails until they are");
            }
            yaml.open(2, "litellm_params", null);
            yaml.entry(3, "model", YamlWriter.string(params.model()), null);
            optional(yaml, 3, "api_base", params.endpoint().apiBase().map(YamlWriter::string));
            optional(yaml, 3, "api_key", params.endpoint().apiKey().map(ConfigPrinter::secret));
            optional(yaml, 3, "api_version", params.endpoint().apiVersion().map(YamlWriter::string));
            optional(yaml, 3, "rpm", text(params.capacity().rpm()));
            optional(yaml, 3, "tpm", text(params.capacity().tpm()));
            optional(yaml, 3, "weight", text(params.weight()));
            optional(yaml, 3, "order", text(params.order()));
            optional(yaml, 3, "timeout", params.attempts().timeout().map(YamlWriter::seconds));
            optional(yaml, 3, "stream_timeout", params.attempts().streamTimeout().map(YamlWriter::seconds));
            optional(yaml, 3, "max_retries", text(params.attempts().maxRetries()));
            optional(yaml, 3, "cooldown_time", params.attempts().cooldownTime().map(YamlWriter::seconds));
            optional(yaml, 3, "input_cost_per_token", text(params.prices().inputCostPerToken()));
            optional(yaml, 3, "output_cost_per_token", text(params.prices().outputCostPerToken()));
            UnitPrices units = params.prices().unitPrices();
            optional(yaml, 3, "output_cost_per_image", text(units.outputCostPerImage()));
            optional(yaml, 3, "input_cost_per_pixel", text(units.inputCostPerPixel()));
            optional(yaml, 3, "input_cost_per_character", text(units.inputCostPerCharacter()));
            optional(yaml, 3, "input_cost_per_second", text(units.inputCostPerSecond()));
            optional(yaml, 3, "input_cost_per_query", text(units.inputCostPerQuery()));
            if (!params.guardrails().isEmpty()) {
                yaml.entry(3, "guardrails", YamlWriter.strings(params.guardrails()), null);
            }
            if (!params.tags().isEmpty()) {
                yaml.entry(3, "tags", YamlWriter.strings(params.tags()), null);
            }
            modelInfo(yaml, deployment.info());
        }
    }

    private static void modelInfo(YamlWriter yaml, ModelInfo info) {
        if (info.equals(ModelInfo.EMPTY)) {
            return;
        }
        yaml.open(2, "model_info", null);
        optional(yaml, 3, "id", info.id().map(YamlWriter::string));
        optional(yaml, 3, "max_input_tokens", text(info.maxInputTokens()));
        optional(yaml, 3, "max_output_tokens", text(info.maxOutputTokens()));
        if (!info.allowedFailsPolicy().isEmpty()) {
            counts(yaml, 3, "allowed_fails_policy", info.allowedFailsPolicy(), null);
        }
        optional(yaml, 3, "cooldown_time", info.cooldownTime().map(YamlWriter::seconds));
        optional(yaml, 3, "mode", info.mode().map(ModelMode::configName));
        optional(yaml, 3, "base_model", info.baseModel().map(YamlWriter::string));
        optional(yaml, 3, "input_cost_per_token", text(info.inputCostPerToken()));
        optional(yaml, 3, "output_cost_per_token", text(info.outputCostPerToken()));
    }

    private static void router(YamlWriter yaml, RouterSettings router) {
        Map<String, String> sources = router.sources();
        yaml.comment(0, "Each router setting says where its value came from.");
        yaml.open(0, "router_settings", null);
        setting(yaml, sources, "routing_strategy", YamlWriter.string(router.routing().routingStrategy()));
        setting(yaml, sources, "num_retries", String.valueOf(router.retries().numRetries()));
        setting(yaml, sources, "timeout", YamlWriter.seconds(router.timeouts().timeout()));
        setting(yaml, sources, "stream_timeout", orNull(router.timeouts().streamTimeout().map(YamlWriter::seconds)));
        setting(yaml, sources, "max_client_num_retries", String.valueOf(router.retries().maxClientNumRetries()));
        String clientTimeoutSource = source(sources, "max_client_timeout");
        yaml.entry(1, "max_client_timeout", YamlWriter.seconds(router.timeouts().maxClientTimeout()),
                clientTimeoutSource.equals(RouterSettingsParser.FROM_DEFAULT) ? "default: timeout" : clientTimeoutSource);
        setting(yaml, sources, "allowed_fails", String.valueOf(router.cooldowns().allowedFails()));
        setting(yaml, sources, "cooldown_time", YamlWriter.seconds(router.cooldowns().cooldownTime()));
        setting(yaml, sources, "disable_cooldowns", String.valueOf(router.cooldowns().disableCooldowns()));
        fallbacks(yaml, sources, "fallbacks", router.fallbacks().fallbacks());
        fallbacks(yaml, sources, "context_window_fallbacks", router.fallbacks().contextWindowFallbacks());
        fallbacks(yaml, sources, "content_policy_fallbacks", router.fallbacks().contentPolicyFallbacks());
        setting(yaml, sources, "default_fallbacks", YamlWriter.strings(router.fallbacks().defaultFallbacks()));
        setting(yaml, sources, "max_fallbacks", String.valueOf(router.fallbacks().maxFallbacks()));
        counts(yaml, 1, "retry_policy", router.retries().retryPolicy(), source(sources, "retry_policy"));
        groupRetryPolicy(yaml, sources, router.retries().modelGroupRetryPolicy());
        counts(yaml, 1, "allowed_fails_policy", router.cooldowns().allowedFailsPolicy(), source(sources, "allowed_fails_policy"));
        setting(yaml, sources, "enable_pre_call_checks", String.valueOf(router.preCallChecks().enablePreCallChecks()));
        setting(yaml, sources, "optional_pre_call_checks", YamlWriter.strings(router.preCallChecks().optionalPreCallChecks()));
        setting(yaml, sources, "enable_tag_filtering", String.valueOf(router.preCallChecks().enableTagFiltering()));
        setting(yaml, sources, "tag_filtering_match_any", String.valueOf(router.preCallChecks().tagFilteringMatchAny()));
        setting(yaml, sources, "routing_strategy_args", YamlWriter.flow(router.routing().routingStrategyArgs()));
        setting(yaml, sources, "redis_host", orNull(router.redis().redisHost().map(YamlWriter::string)));
        setting(yaml, sources, "redis_port", orNull(text(router.redis().redisPort())));
        setting(yaml, sources, "redis_password", orNull(router.redis().redisPassword().map(ConfigPrinter::secret)));
        setting(yaml, sources, "redis_db", orNull(text(router.redis().redisDb())));
        setting(yaml, sources, "redis_url", orNull(router.redis().redisUrl().map(ConfigPrinter::secret)));
        setting(yaml, sources, "redis_key_prefix", YamlWriter.string(router.redis().redisKeyPrefix()));
        setting(yaml, sources, "redis_socket_timeout", orNull(router.redis().redisSocketTimeout().map(YamlWriter::seconds)));
    }

    private static void general(YamlWriter yaml, GeneralSettings general) {
        yaml.open(0, "general_settings", null);
        yaml.entry(1, "master_key", orNull(general.masterKey().map(ConfigPrinter::secret)), null);
        yaml.entry(1, "database_url", orNull(general.store().databaseUrl().map(ConfigPrinter::secret)), null);
        double megabytes = general.maxRequestBytes() / (1024.0 * 1024.0);
        yaml.entry(1, "max_request_size_mb", YamlWriter.number(megabytes), general.maxRequestBytes() + " bytes");
        yaml.entry(1, "store_path", YamlWriter.string(general.store().storePath().toString()),
                general.store().databaseUrl().isPresent() ? "unused: database_url names the store"
                        : general.usesStore() ? null : "unused: no master_key or database_url, so no store");
        yaml.entry(1, "enforce_fallback_model_access", Boolean.toString(general.fallbackChecks().enforceFallbackModelAccess()), null);
        yaml.entry(1, "enforce_fallback_budget", Boolean.toString(general.fallbackChecks().enforceFallbackBudget()), null);
        HealthCheckSettings health = general.healthChecks();
        yaml.entry(1, "background_health_checks", Boolean.toString(health.background()), null);
        yaml.entry(1, "health_check_interval", YamlWriter.seconds(health.interval()),
                health.background() ? null : "unused: background_health_checks is off");
        yaml.entry(1, "health_check_timeout", YamlWriter.seconds(health.timeout()), null);
        yaml.entry(1, "health_check_bench_unhealthy", Boolean.toString(health.benchUnhealthy()),
                !health.benchUnhealthy() || health.background() ? null : "unused: background_health_checks is off");
        ModelApiSettings modelApi = general.modelApi();
        yaml.entry(1, "admin_allowed_env_vars", YamlWriter.strings(modelApi.allowedEnvVars().stream().sorted().toList()), null);
        yaml.entry(1, "admin_allowed_credentials", YamlWriter.strings(modelApi.allowedCredentials().stream()
                .map(AmbientCredentials.Kind::written).sorted().toList()), null);
        yaml.entry(1, "admin_api_base_denied_networks", YamlWriter.strings(modelApi.deniedNetworks().stream()
                .map(Object::toString).toList()), null);
        yaml.entry(1, "admin_api_base_allowed_networks", YamlWriter.strings(modelApi.allowedNetworks().stream()
                .map(Object::toString).toList()), null);
        yaml.entry(1, "auth_failure_limit", Integer.toString(general.authFailures().limit()),
                general.authFailures().on() ? null : "off");
        yaml.entry(1, "auth_failure_window_seconds", YamlWriter.seconds(general.authFailures().window()), null);
        yaml.entry(1, "request_head_timeout_seconds", YamlWriter.seconds(general.edge().requestHeadTimeout()), null);
        EdgeSettings edge = general.edge();
        yaml.entry(1, "max_open_connections", Integer.toString(edge.openConnectionsBound()),
                edge.maxOpenConnections().isEmpty() ? "sized to the heap" : null);
        yaml.entry(1, "max_connections_per_ip", Integer.toString(edge.connections().maxPerAddress()), null);
        yaml.entry(1, "trusted_proxies", YamlWriter.strings(edge.connections().trustedProxies().stream()
                .map(Object::toString).toList()), null);
        yaml.entry(1, "keep_alive_timeout_seconds", YamlWriter.seconds(edge.connections().keepAliveTimeout()), null);
        yaml.entry(1, "request_body_timeout_seconds", YamlWriter.seconds(edge.requestBodyTimeout()), null);
        yaml.entry(1, "max_json_depth", Integer.toString(edge.json().maxDepth()), null);
        yaml.entry(1, "max_json_tokens", Long.toString(edge.json().maxTokens()), null);
        yaml.entry(1, "global_max_parallel_requests", Integer.toString(edge.callsInFlightBound()),
                edge.maxCallsInFlight().isEmpty() ? "sized to the heap" : null);
        yaml.entry(1, "liveness_exit_after_seconds", YamlWriter.seconds(edge.livenessExitAfter()),
                edge.livenessExitAfter().isZero() ? "never exits" : null);
        yaml.entry(1, "drain_timeout_seconds", YamlWriter.seconds(general.drainTimeout()), null);
        yaml.entry(1, "public_metrics", Boolean.toString(general.metrics().namesPublic()), general.metrics().keyRequired()
                ? "/metrics needs a key (litellm_settings.require_auth_for_metrics_endpoint)" : null);
        yaml.entry(1, "virtual_key_copy_ttl_hours", Long.toString(general.store().keyCopyLifetime().toHours()),
                general.store().keyCopyLifetime().isZero() ? "no copies" : null);
        yaml.entry(1, "maximum_spend_logs_retention_period", YamlWriter.string(SpendLogSettings.text(general.spendLogs().retention())),
                null);
        yaml.entry(1, "maximum_spend_logs_retention_interval", YamlWriter.string(SpendLogSettings.text(general.spendLogs().interval())),
                null);
        long buffered = general.edge().bufferedRequestBudget();
        yaml.entry(1, "max_buffered_request_mb", YamlWriter.number(buffered / (1024.0 * 1024.0)), buffered + " bytes"
                + (general.edge().maxBufferedRequestBytes().isEmpty() ? ", an eighth of the heap" : ""));
    }

    private static void guardrails(YamlWriter yaml, List<GuardrailConfig> guardrails) {
        if (guardrails.isEmpty()) {
            yaml.entry(0, "guardrails", "[]", null);
            return;
        }
        yaml.open(0, "guardrails", null);
        for (GuardrailConfig guardrail : guardrails) {
            yaml.item(1, "guardrail_name", YamlWriter.string(guardrail.name()));
            yaml.open(2, "litellm_params", null);
            yaml.entry(3, "guardrail", YamlWriter.string(guardrail.type()), null);
            yaml.entry(3, "mode", YamlWriter.strings(guardrail.modes().stream().map(GuardrailMode::configName).toList()), null);
            yaml.entry(3, "default_on", String.valueOf(guardrail.defaultOn()), null);
            yaml.entry(3, "blocked_words", YamlWriter.strings(guardrail.blockedWords()), null);
            if (guardrail.patterns().isEmpty()) {
                yaml.entry(3, "patterns", "[]", null);
                continue;
            }
            yaml.open(3, "patterns", null);
            for (GuardrailConfig.ContentPattern pattern : guardrail.patterns()) {
                yaml.item(4, "name", YamlWriter.string(pattern.name()));
                yaml.entry(5, "pattern_type", pattern.patternType(), null);
                yaml.entry(5, "pattern", YamlWriter.string(pattern.regex()), null);
            }
        }
    }

    private static void ignoredKeys(YamlWriter yaml, List<String> ignoredKeys) {
        yaml.comment(0, "Read but not acted on (yet).");
        if (ignoredKeys.isEmpty()) {
            yaml.entry(0, "ignored_keys", "[]", null);
            return;
        }
        yaml.open(0, "ignored_keys", null);
        ignoredKeys.forEach(key -> yaml.item(1, YamlWriter.string(key)));
    }

    private static void setting(YamlWriter yaml, Map<String, String> sources, String key, String value) {
        yaml.entry(1, key, value, source(sources, key));
    }

    private static void fallbacks(YamlWriter yaml, Map<String, String> sources, String key, Map<String, List<String>> fallbacks) {
        if (fallbacks.isEmpty()) {
            setting(yaml, sources, key, "{}");
            return;
        }
        yaml.open(1, key, source(sources, key));
        fallbacks.forEach((group, targets) -> yaml.entry(2, group, YamlWriter.strings(targets), null));
    }

    private static void groupRetryPolicy(YamlWriter yaml, Map<String, String> sources, Map<String, Map<String, Integer>> policies) {
        String key = "model_group_retry_policy";
        if (policies.isEmpty()) {
            setting(yaml, sources, key, "{}");
            return;
        }
        yaml.open(1, key, source(sources, key));
        policies.forEach((group, policy) -> counts(yaml, 2, group, policy, null));
    }

    private static void counts(YamlWriter yaml, int indent, String key, Map<String, Integer> counts, String comment) {
        if (counts.isEmpty()) {
            yaml.entry(indent, key, "{}", comment);
            return;
        }
        yaml.open(indent, key, comment);
        counts.forEach((name, count) -> yaml.entry(indent + 1, name, String.valueOf(count), null));
    }

    /** Where a router setting came from, e.g. {@code litellm_settings.request_timeout}. */
    private static String source(Map<String, String> sources, String key) {
        String source = sources.getOrDefault(key, RouterSettingsParser.FROM_DEFAULT);
        if (source.equals(RouterSettingsParser.FROM_LITELLM)) {
            return source + "." + LitellmSettingsOverlap.litellmName(key).orElse(key);
        }
        return source;
    }

    private static void optional(YamlWriter yaml, int indent, String key, Optional<String> value) {
        value.ifPresent(text -> yaml.entry(indent, key, text, null));
    }

    private static String secret(Secret secret) {
        return YamlWriter.string(secret.masked());
    }

    private static String orNull(Optional<String> value) {
        return value.orElse("null");
    }

    private static Optional<String> text(OptionalInt value) {
        return value.isPresent() ? Optional.of(String.valueOf(value.getAsInt())) : Optional.empty();
    }

    private static Optional<String> text(OptionalDouble value) {
        return value.isPresent() ? Optional.of(YamlWriter.number(value.getAsDouble())) : Optional.empty();
    }
}
