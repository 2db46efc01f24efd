package dev.sluice.config;

import java.util.List;

/**
 * The environment variables a config reads by name when its file leaves the setting out, as
 * LiteLLM's proxy reads them. Any other variable reaches the config only through an
 * {@code os.environ/NAME} reference. Deployment files (docker-compose, Kubernetes) are
 * checked against this list, so a variable they set is one the gateway reads.
 */
public final class FallbackVariables {
    /** {@code general_settings.master_key}. */
    public static final String MASTER_KEY = "LITELLM_MASTER_KEY";
    /** {@code general_settings.database_url}. */
    public static final String DATABASE_URL = "DATABASE_URL";
    /** {@code router_settings.redis_host}, and the cache's {@code host} when the router has no Redis. */
    public static final String REDIS_HOST = "REDIS_HOST";
    /** {@code router_settings.redis_port}, and the cache's {@code port}; Kubernetes' {@code tcp://} form is read too. */
    public static final String REDIS_PORT = "REDIS_PORT";
    /** {@code router_settings.redis_password}, and the cache's {@code password}. */
    public static final String REDIS_PASSWORD = "REDIS_PASSWORD";
    /** {@code router_settings.redis_socket_timeout}. */
    public static final String REDIS_SOCKET_TIMEOUT = "REDIS_SOCKET_TIMEOUT";
    /** The cache's {@code url}. */
    public static final String REDIS_URL = "REDIS_URL";

    /** Every name above. */
    public static final List<String> ALL = List.of(MASTER_KEY, DATABASE_URL, REDIS_HOST, REDIS_PORT, REDIS_PASSWORD,
            REDIS_SOCKET_TIMEOUT, REDIS_URL);

    private FallbackVariables() {}
}
