package dev.sluice.config;

import java.time.Duration;
import java.util.Map;

/**
 * When a failing deployment is benched, and for how long.
 *
 * @param allowedFails       {@code allowed_fails}: failures a deployment is allowed before it is benched
 * @param cooldownTime       {@code cooldown_time}: how long a benched deployment sits out
 * @param disableCooldowns   {@code disable_cooldowns}: no deployment is ever benched
 * @param allowedFailsPolicy e.g. {@code TimeoutErrorAllowedFails: 2}
 */
public record CooldownSettings(
        int allowedFails,
        Duration cooldownTime,
        boolean disableCooldowns,
        Map<String, Integer> allowedFailsPolicy) {

    /** The same settings allowing {@code fails} failures before a bench. */
    public CooldownSettings withAllowedFails(int fails) {
        return new CooldownSettings(fails, cooldownTime, disableCooldowns, allowedFailsPolicy);
    }

    /** The same settings benching for {@code time}. */
    public CooldownSettings withCooldownTime(Duration time) {
        return new CooldownSettings(allowedFails, time, disableCooldowns, allowedFailsPolicy);
    }
}
