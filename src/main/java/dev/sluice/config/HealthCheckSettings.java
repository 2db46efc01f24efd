package dev.sluice.config;

import java.time.Duration;

/**
 * How {@code GET /health} checks the deployments, from {@code general_settings}.
 *
 * @param background     {@code background_health_checks} (default false): probe every deployment
 *                       every {@code interval} and answer {@code /health} from the latest round,
 *                       instead of probing on each call
 * @param interval       {@code health_check_interval} (default 300 s): the pause between the end
 *                       of one background round and the start of the next
 * @param timeout        Sluice's {@code health_check_timeout} (default 10 s): the longest one probe
 *                       waits, never more than the deployment's own attempt deadline
 * @param benchUnhealthy Sluice's {@code health_check_bench_unhealthy} (default false): a deployment
 *                       failing its background probe is benched until a later probe passes; acted
 *                       on only with {@code background}
 */
public record HealthCheckSettings(boolean background, Duration interval, Duration timeout, boolean benchUnhealthy) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(300);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final HealthCheckSettings DEFAULTS = new HealthCheckSettings(false, DEFAULT_INTERVAL, DEFAULT_TIMEOUT, false);

    /** Whether failing probes bench deployments: asked for, and there are background rounds to lift the bench. */
    public boolean benches() {
        return background && benchUnhealthy;
    }
}
