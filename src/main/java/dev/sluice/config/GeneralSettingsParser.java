package dev.sluice.config;

import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** Reads {@code general_settings}, with LiteLLM's environment fallbacks for its credentials. */
record GeneralSettingsParser(FieldReader read, IgnoredKeys ignored, EnvResolver env) {
    /**
     * LiteLLM's ways of letting callers in that Sluice does not build. Without a master key
     * Sluice lets every caller in, so a config that counted on one of these to keep callers out
     * must not start: it fails closed. With a master key only keys get in, and these are
     * listed as not acted on like any other key.
     */
    private static final List<String> UNBUILT_AUTH = List.of("enable_jwt_auth", "litellm_jwtauth", "custom_auth",
            "enable_oauth2_auth", "enable_oauth2_proxy_auth");

    private static final BigDecimal BYTES_PER_MB = BigDecimal.valueOf(1024L * 1024);
    private static final BigDecimal MAX_MB = BigDecimal.valueOf(Long.MAX_VALUE / (1024L * 1024));

    /** @param requireAuthForMetrics {@code litellm_settings.require_auth_for_metrics_endpoint}, LiteLLM's key for the same route */
    GeneralSettings parse(ConfigNode node, ConfigNode requireAuthForMetrics) {
        Section general = Section.open(node, ignored, read.problems(), "a map");
        Optional<Secret> masterKey = secretOrEnv(general.take("master_key"), FallbackVariables.MASTER_KEY);
        if (masterKey.isEmpty()) {
            refuseUnbuiltAuth(general);
        }
        // Read in the order written here, which is the order problems are listed in.
        Optional<Secret> databaseUrl = secretOrEnv(general.take("database_url"), FallbackVariables.DATABASE_URL);
        long maxRequestBytes = maxRequestBytes(general.take("max_request_size_mb"));
        Path storePath = read.string(general.take("store_path")).map(Path::of).orElse(GeneralSettings.DEFAULT_STORE_PATH);
        FallbackChecks fallbackChecks = new FallbackChecks(
                read.bool(general.take("enforce_fallback_model_access")).orElse(true),
                read.bool(general.take("enforce_fallback_budget")).orElse(true));
        HealthCheckSettings healthChecks = healthChecks(general);
        ModelApiSettings modelApi = new ModelApiSettingsParser(read).parse(general);
        AuthFailureSettings authFailures = new AuthFailureSettings(
                read.intAtLeast(general.take("auth_failure_limit"), 0).orElse(AuthFailureSettings.DEFAULT_LIMIT),
                read.positiveSeconds(general.take("auth_failure_window_seconds")).orElse(AuthFailureSettings.DEFAULT_WINDOW));
        EdgeSettings edge = new EdgeSettingsParser(read).parse(general, budget -> megabytes(budget, Long.MAX_VALUE));
        Duration drainTimeout = read.positiveSeconds(general.take("drain_timeout_seconds")).orElse(GeneralSettings.DEFAULT_DRAIN_TIMEOUT);
        SpendLogSettings spendLogs = new SpendLogSettings(
                period(general.take("maximum_spend_logs_retention_period")).orElse(SpendLogSettings.DEFAULTS.retention()),
                period(general.take("maximum_spend_logs_retention_interval")).orElse(SpendLogSettings.DEFAULTS.interval()));
        MetricsAccess metrics = metrics(general.take("public_metrics"), requireAuthForMetrics);
        StoreSettings store = new StoreSettings(databaseUrl, storePath, keyCopyLifetime(general));
        GeneralSettings settings = new GeneralSettings(masterKey, maxRequestBytes, store, fallbackChecks, healthChecks, modelApi,
                authFailures, edge, drainTimeout, spendLogs, metrics);
        general.finish();
        return settings;
    }

    /** {@code virtual_key_copy_ttl_hours}: whole hours, 0 for no copies in Redis. */
    private java.time.Duration keyCopyLifetime(Section general) {
        OptionalInt hours = read.intAtLeast(general.take("virtual_key_copy_ttl_hours"), 0);
        return hours.isPresent() ? java.time.Duration.ofHours(hours.getAsInt()) : GeneralSettings.DEFAULT_KEY_COPY_LIFETIME;
    }

    /** Each of {@link #UNBUILT_AUTH} written (and not false) is a problem: the gateway would serve everyone. */
    private void refuseUnbuiltAuth(Section general) {
        for (String key : UNBUILT_AUTH) {
            ConfigNode node = general.node().get(key);
            boolean off = node.value().isBoolean() && !node.value().booleanValue()
                    || node.value().isTextual() && node.value().textValue().strip().equalsIgnoreCase("false");
            if (!node.isAbsent() && !node.value().isNull() && !off) {
                read.problems().add(node, ShownValue.of(node.value(), false), "no " + key + " without a master_key: Sluice"
                        + " does not build this way of authenticating callers, and without master_key (or LITELLM_MASTER_KEY)"
                        + " it lets every caller in; set a master_key (callers then need it or a virtual key), or remove "
                        + key);
            }
        }
    }

    /**
     * The interval and the bench act only with background checks: written without them, they
     * are listed as not acted on.
     */
    private HealthCheckSettings healthChecks(Section general) {
        boolean background = read.bool(general.take("background_health_checks")).orElse(false);
        ConfigNode intervalNode = general.take("health_check_interval");
        Duration interval = read.positiveSeconds(intervalNode).orElse(HealthCheckSettings.DEFAULT_INTERVAL);
        Duration timeout = read.positiveSeconds(general.take("health_check_timeout")).orElse(HealthCheckSettings.DEFAULT_TIMEOUT);
        ConfigNode benchNode = general.take("health_check_bench_unhealthy");
        boolean bench = read.bool(benchNode).orElse(false);
        if (!background && !intervalNode.isAbsent()) {
            ignored.notActedOn(intervalNode);
        }
        if (!background && bench) {
            ignored.notActedOn(benchNode);
        }
        return new HealthCheckSettings(background, interval, timeout, bench);
    }

    /**
     * LiteLLM's {@code require_auth_for_metrics_endpoint: false} is its default made explicit:
     * metrics open to all, names included, so it makes them public as {@code public_metrics: true}
     * does; both written, one false and the other saying the opposite, is a contradiction.
     */
    private MetricsAccess metrics(ConfigNode publicMetrics, ConfigNode requireAuth) {
        Optional<Boolean> namesPublic = read.bool(publicMetrics);
        Optional<Boolean> keyRequired = read.bool(requireAuth);
        if (namesPublic.equals(Optional.of(false)) && keyRequired.equals(Optional.of(false))) {
            read.problems().add(publicMetrics, "false", "true, or no litellm_settings.require_auth_for_metrics_endpoint: false,"
                    + " which makes every series public: remove one of the two");
        }
        return new MetricsAccess(keyRequired.orElse(false), namesPublic.orElse(keyRequired.equals(Optional.of(false))));
    }

    private Optional<Duration> period(ConfigNode node) {
        return read.string(node, SpendLogSettings::isPeriod, SpendLogSettings.FORMAT).map(SpendLogSettings::period);
    }

    /** An unset key reads the variable, as if written {@code os.environ/VARIABLE}. */
    private Optional<Secret> secretOrEnv(ConfigNode node, String variable) {
        if (node.isAbsent() && env.isSet(variable)) {
            return read.secret(node.withValue(TextNode.valueOf(EnvResolver.PREFIX + variable)));
        }
        return read.secret(node);
    }

    private long maxRequestBytes(ConfigNode node) {
        return megabytes(node, GeneralSettings.DEFAULT_MAX_REQUEST_BYTES);
    }

    /** Megabytes > 0 (fractions allowed) as bytes, rounded up; the fallback when unset or refused. */
    private long megabytes(ConfigNode node, long fallback) {
        Optional<BigDecimal> megabytes = read.positiveNumber(node);
        if (megabytes.isEmpty()) {
            return fallback;
        }
        if (megabytes.get().compareTo(MAX_MB) > 0) {
            read.problems().add(node, ShownValue.of(node.value(), false), "<= " + MAX_MB);
            return fallback;
        }
        return megabytes.get().multiply(BYTES_PER_MB).setScale(0, RoundingMode.CEILING).longValueExact();
    }
}
