package dev.sluice.config;

import java.util.Optional;

/**
 * {@code general_settings}.
 *
 * @param masterKey       {@code master_key}, else the {@code LITELLM_MASTER_KEY} variable
 * @param databaseUrl     {@code database_url}, else the {@code DATABASE_URL} variable
 * @param maxRequestBytes largest request body accepted, from {@code max_request_size_mb} (default 32)
 */
public record GeneralSettings(Optional<Secret> masterKey, Optional<Secret> databaseUrl, long maxRequestBytes) {

    public static final long DEFAULT_MAX_REQUEST_BYTES = 32L * 1024 * 1024;
}
