package dev.sluice.store.redis;

import dev.sluice.config.CacheSettings;
import dev.sluice.config.RedisSettings;
import dev.sluice.config.RouterSettings;
import dev.sluice.config.Secret;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.RedisOptions;
import java.net.URI;
import java.util.Optional;

/**
 * Where a Redis is and how to connect to it: the client's options, and the address as logs
 * may show it (no password).
 *
 * @param where the scheme, host and port, or host and port, without credentials
 */
public record RedisAddress(RedisOptions options, String where) {
    /** How long opening one connection may take. */
    static final int CONNECT_TIMEOUT_MS = 1_000;

    /** The Redis the router settings name ({@code redis_url}, else {@code redis_host} and the rest), if any. */
    public static Optional<RedisAddress> of(RouterSettings router) {
        RedisSettings redis = router.redis();
        if (redis.redisUrl().isEmpty() && redis.redisHost().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(of(redis.redisUrl(), redis.redisHost(), redis.redisPort().orElse(6379), redis.redisDb().orElse(0),
                redis.redisPassword()));
    }

    /** The response cache's own Redis ({@code cache_params}: {@code url}, else {@code host} and {@code port}). */
    public static RedisAddress of(CacheSettings.RedisServer server) {
        return of(server.url(), server.host(), server.port(), 0, server.password());
    }

    private static RedisAddress of(Optional<Secret> url, Optional<String> host, int port, int db, Optional<Secret> password) {
        RedisOptions options = pooled().setMaxPoolWaiting(64);
        String where;
        if (url.isPresent()) {
            // rediss:// asks for TLS; the URL's own password and /db win over the password and db given beside it.
            options.setConnectionString(url.get().value());
            where = withoutCredentials(url.get().value());
        } else {
            String name = host.orElseThrow();
            where = name + ":" + port;
            options.setConnectionString("redis://" + (name.contains(":") ? "[" + name + "]" : name) + ":" + port + "/" + db);
        }
        password.ifPresent(secret -> options.setPassword(secret.value()));
        return new RedisAddress(options, where);
    }

    /** The Redis at {@code url}, for tests and tools. */
    public static RedisAddress ofUrl(String url) {
        return new RedisAddress(pooled().setConnectionString(url), withoutCredentials(url));
    }

    private static RedisOptions pooled() {
        return new RedisOptions()
                .setMaxPoolSize(4)
                .setNetClientOptions(new NetClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS).setTcpNoDelay(true));
    }

    private static String withoutCredentials(String url) {
        try {
            URI uri = URI.create(url);
            return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
        } catch (IllegalArgumentException e) {
            return "the configured redis_url";
        }
    }
}
