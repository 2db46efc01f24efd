package dev.sluice.config;

import dev.sluice.model.Operation;
import dev.sluice.model.Required;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The response cache: {@code litellm_settings.cache} and {@code cache_params}, as LiteLLM
 * reads them. Off unless {@code cache: true}; a semantic or object-store {@code type} is not
 * acted on and leaves it off.
 *
 * @param enabled          whether answers are cached at all
 * @param type             where entries live
 * @param ttl              how long an entry lives unless a request says otherwise; empty: until
 *                         Redis evicts it (a local entry always has one)
 * @param namespace        what every key starts with ({@code namespace:hash}); empty for none
 * @param operations       the call types that are cached
 * @param defaultOn        {@code mode: default_on}; with {@code default_off} only a request
 *                         asking {@code cache: {use-cache: true}} is cached
 * @param maxMemoryBytes   a local cache's bound on what its entries hold
 * @param maxItems         a local cache's bound on its entries, 0 for none ({@code max_size_in_memory})
 * @param maxItemBytes     the largest answer stored ({@code max_size_per_item}, in KB in the file)
 * @param redis            a Redis cache's server: empty for the one {@code router_settings} names
 * @param socketTimeout    how long one Redis call of the cache may take before it counts as a miss
 */
public record CacheSettings(boolean enabled, Type type, Optional<Duration> ttl, Optional<String> namespace,
        Set<Operation> operations, boolean defaultOn, long maxMemoryBytes, int maxItems, long maxItemBytes,
        Optional<RedisServer> redis, Duration socketTimeout) {

    public static final Duration DEFAULT_LOCAL_TTL = Duration.ofSeconds(600);
    public static final long DEFAULT_MAX_MEMORY_BYTES = 16L * 1024 * 1024;
    public static final long DEFAULT_MAX_ITEM_BYTES = 1024L * 1024;
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(1);

    /** No response cache. */
    public static final CacheSettings OFF = new CacheSettings(false, Type.LOCAL, Optional.of(DEFAULT_LOCAL_TTL),
            Optional.empty(), CacheSettingsParser.CACHEABLE, true, DEFAULT_MAX_MEMORY_BYTES, 0, DEFAULT_MAX_ITEM_BYTES,
            Optional.empty(), DEFAULT_SOCKET_TIMEOUT);

    public enum Type {
        /** In this gateway's memory, bounded by bytes. */
        LOCAL,
        /** In Redis, shared by every replica. */
        REDIS
    }

    /**
     * A Redis for the cache alone: {@code url}, else {@code host} and {@code port}.
     *
     * @param url      {@code redis://} or {@code rediss://}, credentials and database included
     * @param password for {@code host}; a URL carries its own
     */
    public record RedisServer(Optional<Secret> url, Optional<String> host, int port, Optional<Secret> password) {
        public RedisServer {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(password, "password");
        }
    }

    public CacheSettings {
        Required.nonNull("type, ttl, namespace, redis, socketTimeout", type, ttl, namespace, redis, socketTimeout);
        operations = Set.copyOf(operations);
    }

    /** A namespace goes into a response header and a spend row: printable ASCII, no spaces. */
    private static final Pattern NAMESPACE = Pattern.compile("[\\x21-\\x7E]{1,256}");
    public static final String NAMESPACE_RULE = "1 to 256 printable ASCII characters without spaces";

    /** Whether {@code namespace} may name a namespace, in the config or in a request. */
    public static boolean isNamespace(String namespace) {
        return NAMESPACE.matcher(namespace).matches();
    }

    /** Whether calls of {@code operation} are cached. */
    public boolean caches(Operation operation) {
        return enabled && operations.contains(operation);
    }
}
