package dev.sluice.config;

import java.util.Map;

/**
 * The effective router settings: {@code router_settings}, then the overlapping keys of
 * {@code litellm_settings}, then Sluice's defaults, held by concern. {@link #sources()} says,
 * for each key by its config name (e.g. {@code num_retries}), where the value came from:
 * {@code router_settings}, {@code litellm_settings} or {@code default}; the Redis
 * settings may also say {@code environment} (from {@code REDIS_HOST}, {@code REDIS_PORT},
 * {@code REDIS_PASSWORD}, {@code REDIS_SOCKET_TIMEOUT}, which LiteLLM's proxy reads when
 * router_settings does not set them).
 *
 * <p>Settings that change while the gateway runs are set through their typed keys
 * ({@link RouterSetting}), each on its own part.
 */
public record RouterSettings(
        RoutingSettings routing,
        PreCallCheckSettings preCallChecks,
        RetrySettings retries,
        TimeoutSettings timeouts,
        CooldownSettings cooldowns,
        FallbackSettings fallbacks,
        RedisSettings redis,
        Map<String, String> sources) {

    public RouterSettings withRouting(RoutingSettings replaced) {
        return new RouterSettings(replaced, preCallChecks, retries, timeouts, cooldowns, fallbacks, redis, sources);
    }

    public RouterSettings withPreCallChecks(PreCallCheckSettings replaced) {
        return new RouterSettings(routing, replaced, retries, timeouts, cooldowns, fallbacks, redis, sources);
    }

    public RouterSettings withRetries(RetrySettings replaced) {
        return new RouterSettings(routing, preCallChecks, replaced, timeouts, cooldowns, fallbacks, redis, sources);
    }

    public RouterSettings withTimeouts(TimeoutSettings replaced) {
        return new RouterSettings(routing, preCallChecks, retries, replaced, cooldowns, fallbacks, redis, sources);
    }

    public RouterSettings withCooldowns(CooldownSettings replaced) {
        return new RouterSettings(routing, preCallChecks, retries, timeouts, replaced, fallbacks, redis, sources);
    }

    public RouterSettings withFallbacks(FallbackSettings replaced) {
        return new RouterSettings(routing, preCallChecks, retries, timeouts, cooldowns, replaced, redis, sources);
    }

    /** The same settings saying {@code replaced} for where each value came from. */
    public RouterSettings withSources(Map<String, String> replaced) {
        return new RouterSettings(routing, preCallChecks, retries, timeouts, cooldowns, fallbacks, redis, replaced);
    }
}
