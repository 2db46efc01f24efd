package dev.sluice.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code general_settings}.
 *
 * @param masterKey                    {@code master_key}, else the {@code LITELLM_MASTER_KEY} variable
 * @param databaseUrl                  {@code database_url}, else the {@code DATABASE_URL} variable
 * @param maxRequestBytes              largest request body accepted, from {@code max_request_size_mb} (default 32)
 * @param storePath                    Sluice's {@code store_path}: the embedded store's file when there is no
 *                                     {@code database_url} (default {@code sluice-data/sluice}); the spend
 *                                     buffer lives in a folder beside it
 * @param enforceFallbackModelAccess   {@code enforce_fallback_model_access} (default true): a fallback group the
 *                                     caller's key or team may not use is skipped
 * @param enforceFallbackBudget        {@code enforce_fallback_budget} (default true): a fallback group the caller's
 *                                     budgets do not cover is skipped
 * @param healthChecks                 how {@code GET /health} probes the deployments: {@code background_health_checks},
 *                                     {@code health_check_interval} and Sluice's {@code health_check_timeout} and
 *                                     {@code health_check_bench_unhealthy}
 * @param modelApi                     what deployments given through the model API may reach: the
 *                                     {@code admin_allowed_env_vars} and {@code admin_api_base_*_networks} keys
 * @param authFailures                 how failed authentication from one address is slowed down:
 *                                     {@code auth_failure_limit} and {@code auth_failure_window_seconds}
 * @param edge                         how much of the gateway one client may hold: {@code request_head_timeout_seconds},
 *                                     {@code max_open_connections}, {@code max_buffered_request_mb}
 * @param drainTimeout                 Sluice's {@code drain_timeout_seconds} (default 30): how long calls in flight
 *                                     get to finish when the gateway stops
 * @param spendLogs                    how long the spend log keeps its rows: {@code maximum_spend_logs_retention_period}
 *                                     and {@code maximum_spend_logs_retention_interval}
 * @param metrics                      who may read {@code /metrics} and see its named series: Sluice's
 *                                     {@code public_metrics} and LiteLLM's
 *                                     {@code litellm_settings.require_auth_for_metrics_endpoint}
 * @param keyCopyLifetime              Sluice's {@code virtual_key_copy_ttl_hours} (default 6): how long the Redis copy
 *                                     of a key read from the store lives after its last read; zero keeps no copies
 */
public record GeneralSettings(
        Optional<Secret> masterKey,
        Optional<Secret> databaseUrl,
        long maxRequestBytes,
        Path storePath,
        boolean enforceFallbackModelAccess,
        boolean enforceFallbackBudget,
        HealthCheckSettings healthChecks,
        ModelApiSettings modelApi,
        AuthFailureSettings authFailures,
        EdgeSettings edge,
        java.time.Duration drainTimeout,
        SpendLogSettings spendLogs,
        MetricsAccess metrics,
        java.time.Duration keyCopyLifetime) {

    public static final java.time.Duration DEFAULT_DRAIN_TIMEOUT = java.time.Duration.ofSeconds(30);
    /** How long a key's Redis copy lives after the store last answered for it, unless configured. */
    public static final java.time.Duration DEFAULT_KEY_COPY_LIFETIME = java.time.Duration.ofHours(6);

    public static final long DEFAULT_MAX_REQUEST_BYTES = 32L * 1024 * 1024;
    public static final Path DEFAULT_STORE_PATH = Path.of("sluice-data", "sluice");

    /** The same settings with the embedded store in {@code path}. */
    public GeneralSettings withStorePath(Path path) {
        return new GeneralSettings(masterKey, databaseUrl, maxRequestBytes, path, enforceFallbackModelAccess, enforceFallbackBudget,
                healthChecks, modelApi, authFailures, edge, drainTimeout, spendLogs, metrics, keyCopyLifetime);
    }

    /** Whether keys, teams and spend need the store: a master key turns virtual keys on, a database URL names one. */
    public boolean usesStore() {
        return masterKey.isPresent() || databaseUrl.isPresent();
    }
}
