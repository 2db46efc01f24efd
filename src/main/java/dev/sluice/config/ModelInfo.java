package dev.sluice.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A deployment's {@code model_info}.
 *
 * @param id                 as written; {@link Deployment#id()} carries the effective id
 * @param allowedFailsPolicy per-deployment override of {@code allowed_fails_policy}, e.g.
 *                           {@code InternalServerErrorAllowedFails: 1}
 * @param mode               {@code mode}, when it names one Sluice acts on; how the deployment's health is probed
 */
public record ModelInfo(
        Optional<String> id,
        OptionalInt maxInputTokens,
        OptionalInt maxOutputTokens,
        Map<String, Integer> allowedFailsPolicy,
        Optional<Duration> cooldownTime,
        Optional<ModelMode> mode) {

    public static final ModelInfo EMPTY = new ModelInfo(Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), Map.of(),
            Optional.empty(), Optional.empty());
}
