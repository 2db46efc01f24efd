package dev.sluice.config;

/**
 * Who may read {@code GET /metrics}, and who sees the series that name model groups,
 * deployments, fallback groups and tags. On a gateway without a master key every caller
 * sees everything, as on every other route.
 *
 * @param keyRequired  LiteLLM's {@code litellm_settings.require_auth_for_metrics_endpoint: true}: the route
 *                     needs the master key or a virtual key (401 otherwise)
 * @param namesPublic  Sluice's {@code general_settings.public_metrics: true}, or LiteLLM's
 *                     {@code require_auth_for_metrics_endpoint: false} written out: every caller the route
 *                     lets in sees the named series; otherwise only the master key does
 */
public record MetricsAccess(boolean keyRequired, boolean namesPublic) {
    /** By default anyone may scrape, and only the master key sees groups and deployments named. */
    public static final MetricsAccess DEFAULTS = new MetricsAccess(false, false);
}
