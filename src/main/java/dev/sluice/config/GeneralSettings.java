package dev.sluice.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code general_settings}.
 *
 * @param masterKey                    {@code master_key}, else the {@code LITELLM_MASTER_KEY} variable
 * @param maxRequestBytes              largest request body accepted, from {@code max_request_size_mb} (default 32)
 * @param store                        where keys, teams and spend are kept: {@code database_url}, Sluice's
 *                                     {@code store_path} and {@code virtual_key_copy_ttl_hours}
 * @param fallbackChecks               whether fallback groups are held to the caller's model access and budgets
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
 */
public record GeneralSettings(
        Optional<Secret> masterKey,
        long maxRequestBytes,
        StoreSettings store,
        FallbackChecks fallbackChecks,
        HealthCheckSettings healthChecks,
        ModelApiSettings modelApi,
        AuthFailureSettings authFailures,
        EdgeSettings edge,
        java.time.Duration drainTimeout,
        SpendLogSettings spendLogs,
        MetricsAccess metrics) {

    public static final java.time.Duration DEFAULT_DRAIN_TIMEOUT = java.time.Duration.ofSeconds(30);
    /** How long a key's Redis copy lives after the store last answered for it, unless configured. */
    public static final java.time.Duration DEFAULT_KEY_COPY_LIFETIME = java.time.Duration.ofHours(6);

    public static final long DEFAULT_MAX_REQUEST_BYTES = 32L * 1024 * 1024;
    public static final Path DEFAULT_STORE_PATH = Path.of("sluice-data", "sluice");

    /** The same settings with the embedded store in {@code path}. */
    public GeneralSettings withStorePath(Path path) {
        return new GeneralSettings(masterKey, maxRequestBytes, store.withStorePath(path), fallbackChecks, healthChecks, modelApi,
                authFailures, edge, drainTimeout, spendLogs, metrics);
    }

    /** Whether keys, teams and spend need the store: a master key turns virtual keys on, a database URL names one. */
    public boolean usesStore() {
        return masterKey.isPresent() || store.databaseUrl().isPresent();
    }
}
