package dev.sluice.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The Redis that replicas share their routing state through; none of it set, each replica keeps
 * its own. Each value may also come from LiteLLM's {@code REDIS_HOST}, {@code REDIS_PORT},
 * {@code REDIS_PASSWORD} and {@code REDIS_SOCKET_TIMEOUT} variables when the config does not set it.
 *
 * @param redisKeyPrefix     Sluice's own {@code redis_key_prefix}: what every Redis key and
 *                           channel Sluice uses starts with, so several gateways (or tests)
 *                           can share one Redis without sharing state
 * @param redisSocketTimeout {@code redis_socket_timeout} (LiteLLM's {@code REDIS_SOCKET_TIMEOUT}):
 *                           how long one Redis call may take before the gateway counts Redis as
 *                           down and serves on local state. Unset, the gateway's own budget applies
 */
public record RedisSettings(
        Optional<String> redisHost,
        OptionalInt redisPort,
        Optional<Secret> redisPassword,
        OptionalInt redisDb,
        Optional<Secret> redisUrl,
        String redisKeyPrefix,
        Optional<Duration> redisSocketTimeout) {}
