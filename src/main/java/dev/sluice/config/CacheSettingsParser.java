package dev.sluice.config;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.sluice.model.Operation;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads {@code litellm_settings.cache} and {@code cache_params}. A cache's Redis is the one
 * {@code cache_params} names; else the one {@code router_settings} names (which reads LiteLLM's
 * {@code REDIS_HOST}, {@code REDIS_PORT} and {@code REDIS_PASSWORD} itself); else, as LiteLLM's
 * cache does, the one its variables name ({@code REDIS_URL}, {@code REDIS_HOST}, ...). The
 * variables are read for the cache only when it is on and the router has no Redis, so a
 * variable is never judged twice. A {@code type} LiteLLM has and Sluice does not build
 * (semantic caches, object stores, disk) is listed as not acted on, and no answer is cached.
 */
record CacheSettingsParser(FieldReader read, IgnoredKeys ignored, EnvResolver env) {
    /** The call types an exact cache keeps answers of. */
    static final Set<Operation> CACHEABLE = Set.of(Operation.CHAT_COMPLETIONS, Operation.COMPLETIONS, Operation.EMBEDDINGS);

    /** LiteLLM's call type names, sync and async, for the operations Sluice caches. */
    private static final Map<String, Operation> CALL_TYPES = Map.of(
            "completion", Operation.CHAT_COMPLETIONS, "acompletion", Operation.CHAT_COMPLETIONS,
            "text_completion", Operation.COMPLETIONS, "atext_completion", Operation.COMPLETIONS,
            "embedding", Operation.EMBEDDINGS, "aembedding", Operation.EMBEDDINGS);

    private static final List<String> TYPES = List.of("local", "redis", "redis-semantic", "valkey-semantic",
            "qdrant-semantic", "s3", "gcs", "azure-blob", "disk");
    private static final List<String> MODES = List.of("default_on", "default_off");
    private static final long KB = 1024;
    private static final long MB = 1024 * 1024;

    /**
     * @param cache      {@code litellm_settings.cache}
     * @param params     {@code litellm_settings.cache_params}
     * @param routerHasRedis whether {@code router_settings} (or its variables) name a Redis
     */
    CacheSettings parse(ConfigNode cache, ConfigNode params, boolean routerHasRedis) {
        boolean on = read.bool(cache).orElse(false);
        Section section = Section.open(params, ignored, read.problems(), "a map");
        ConfigNode typeNode = section.take("type");
        Optional<String> written = read.oneOf(typeNode, TYPES);
        Optional<Duration> ttl = read.positiveSeconds(section.take("ttl"));
        Optional<Duration> memoryTtl = read.positiveSeconds(section.take("default_in_memory_ttl"));
        Optional<Duration> redisTtl = read.positiveSeconds(section.take("default_in_redis_ttl"));
        Optional<String> namespace = read.string(section.take("namespace"), CacheSettings::isNamespace,
                CacheSettings.NAMESPACE_RULE);
        Set<Operation> operations = operations(section.take("supported_call_types"));
        boolean defaultOn = read.oneOf(section.take("mode"), MODES).map("default_on"::equals).orElse(true);
        long maxMemory = read.positiveInt(section.take("max_size_in_memory_mb")).stream().mapToLong(mb -> mb * MB)
                .findFirst().orElse(CacheSettings.DEFAULT_MAX_MEMORY_BYTES);
        int maxItems = read.positiveInt(section.take("max_size_in_memory")).orElse(0);
        long maxItem = read.positiveInt(section.take("max_size_per_item")).stream().mapToLong(kb -> kb * KB)
                .findFirst().orElse(CacheSettings.DEFAULT_MAX_ITEM_BYTES);
        Optional<CacheSettings.RedisServer> redis = redis(section, on && !routerHasRedis);
        Duration socketTimeout = read.positiveSeconds(section.take("socket_timeout")).orElse(CacheSettings.DEFAULT_SOCKET_TIMEOUT);
        section.finish();

        boolean exact = written.isEmpty() || written.get().equals("local") || written.get().equals("redis");
        if (!exact) {
            ignored.notActedOn(typeNode);
        } else if (!on && !params.isAbsent()) {
            ignored.notActedOn(params);
        }
        // LiteLLM's proxy caches in Redis unless told otherwise; without any Redis to use, in memory.
        boolean inRedis = written.map("redis"::equals)
                .orElse(redis.isPresent() || routerHasRedis);
        if (on && exact && inRedis && redis.isEmpty() && !routerHasRedis) {
            read.problems().add(typeNode, "redis", "a Redis to cache in: cache_params.host or url, REDIS_HOST or REDIS_URL,"
                    + " or router_settings.redis_host");
        }
        CacheSettings.Type type = inRedis ? CacheSettings.Type.REDIS : CacheSettings.Type.LOCAL;
        Optional<Duration> effectiveTtl = ttl.or(() -> inRedis ? redisTtl : memoryTtl.or(() -> Optional.of(CacheSettings.DEFAULT_LOCAL_TTL)));
        return new CacheSettings(on && exact, type, effectiveTtl, namespace, operations, defaultOn, maxMemory, maxItems,
                maxItem, inRedis ? redis : Optional.empty(), socketTimeout);
    }

    /** {@code supported_call_types}: LiteLLM's names; those of calls Sluice does not cache are listed as not acted on. */
    private Set<Operation> operations(ConfigNode node) {
        Optional<List<String>> names = read.strings(node);
        if (names.isEmpty()) {
            return CACHEABLE;
        }
        Set<Operation> operations = EnumSet.noneOf(Operation.class);
        List<ConfigNode> items = node.items();
        for (int i = 0; i < items.size(); i++) {
            Operation operation = CALL_TYPES.get(items.get(i).value().asText());
            if (operation == null) {
                ignored.notActedOn(items.get(i));
            } else {
                operations.add(operation);
            }
        }
        return operations;
    }

    /**
     * The cache's own Redis: {@code url}, else {@code host}; empty for the router's.
     *
     * @param fromEnv whether LiteLLM's variables stand in for what the file does not say
     */
    private Optional<CacheSettings.RedisServer> redis(Section section, boolean fromEnv) {
        Env env = new Env(section, fromEnv);
        Optional<Secret> url = read.secret(section.take("url")).or(() -> env.read("url", FallbackVariables.REDIS_URL, read::secret));
        Optional<String> host = read.string(section.take("host")).or(() -> env.read("host", FallbackVariables.REDIS_HOST, read::string));
        int port = read.intBetween(section.take("port"), 1, 65535).stream().boxed().findFirst()
                .or(() -> env.read("port", FallbackVariables.REDIS_PORT, node -> read.intBetween(node, 1, 65535).stream().boxed().findFirst()))
                .orElse(6379);
        Optional<Secret> password = read.secret(section.take("password"))
                .or(() -> env.read("password", FallbackVariables.REDIS_PASSWORD, read::secret));
        if (url.isEmpty() && host.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CacheSettings.RedisServer(url, host, port, password));
    }

    /** LiteLLM's variables for what {@code cache_params} does not say, when they are read at all. */
    private final class Env {
        private final Section section;
        private final boolean read;

        Env(Section section, boolean read) {
            this.section = section;
            this.read = read;
        }

        /** {@code key}'s value from {@code variable}, read as if the file said {@code os.environ/VARIABLE}. */
        <T> Optional<T> read(String key, String variable, Function<ConfigNode, Optional<T>> reader) {
            if (!read || !env.isSet(variable)) {
                return Optional.empty();
            }
            return reader.apply(section.node().get(key).withValue(TextNode.valueOf(EnvResolver.PREFIX + variable)));
        }
    }
}
