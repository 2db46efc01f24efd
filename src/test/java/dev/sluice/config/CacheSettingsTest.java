package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.model.Operation;
import dev.sluice.testing.Configs;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code litellm_settings.cache} and {@code cache_params}, as LiteLLM reads them: off unless
 * {@code cache: true}; in Redis when one is named (the cache's own, LiteLLM's variables, or
 * the router's), else in memory; semantic and object-store types listed as not acted on.
 */
class CacheSettingsTest {

    @Test
    void isOffUnlessCacheIsTrue() throws ConfigException {
        assertThat(cache("").enabled()).isFalse();
        assertThat(cache("litellm_settings: {cache: false}").enabled()).isFalse();
        SluiceConfig paramsOnly = Configs.parse(Configs.withSection("litellm_settings: {cache_params: {type: local}}"));
        assertThat(paramsOnly.cache().enabled()).isFalse();
        assertThat(paramsOnly.ignoredKeys()).contains("litellm_settings.cache_params");
    }

    @Test
    void withoutAnyRedisTheCacheIsInMemoryForTenMinutes() throws ConfigException {
        CacheSettings cache = cache("litellm_settings: {cache: true}");
        assertThat(cache.enabled()).isTrue();
        assertThat(cache.type()).isEqualTo(CacheSettings.Type.LOCAL);
        assertThat(cache.ttl()).hasValue(Duration.ofSeconds(600));
        assertThat(cache.defaultOn()).isTrue();
        assertThat(cache.operations()).containsExactlyInAnyOrder(Operation.CHAT_COMPLETIONS, Operation.COMPLETIONS,
                Operation.EMBEDDINGS);
    }

    @Test
    void withTheRoutersRedisTheCacheIsThereAndKeptUntilRedisEvictsIt() throws ConfigException {
        CacheSettings cache = cache("litellm_settings: {cache: true}\nrouter_settings: {redis_host: 127.0.0.1}");
        assertThat(cache.type()).isEqualTo(CacheSettings.Type.REDIS);
        assertThat(cache.redis()).isEmpty();
        assertThat(cache.ttl()).isEmpty();
    }

    @Test
    void theCachesOwnRedisComesFromItsParamsOrLiteLlmsVariables() throws ConfigException {
        CacheSettings written = cache("litellm_settings: {cache: true, cache_params: {type: redis, host: cache.internal, port: 6380,"
                + " password: pw, ttl: 30}}");
        assertThat(written.redis()).hasValueSatisfying(redis -> {
            assertThat(redis.host()).hasValue("cache.internal");
            assertThat(redis.port()).isEqualTo(6380);
            assertThat(redis.password().map(Secret::value)).hasValue("pw");
        });
        assertThat(written.ttl()).hasValue(Duration.ofSeconds(30));

        SluiceConfig fromEnv = Configs.parse(Configs.withSection("litellm_settings: {cache: true, cache_params: {type: redis}}"),
                Map.of("REDIS_URL", "redis://env.internal:6390/1"));
        assertThat(fromEnv.cache().redis().flatMap(CacheSettings.RedisServer::url).map(Secret::value))
                .hasValue("redis://env.internal:6390/1");
    }

    @Test
    void aRedisCacheWithoutAnyRedisIsRefused() {
        assertThat(Configs.problems(Configs.withSection("litellm_settings: {cache: true, cache_params: {type: redis}}")))
                .singleElement().asString().startsWith("litellm_settings.cache_params.type: ")
                .contains("a Redis to cache in");
    }

    @Test
    void aSemanticCacheIsNotActedOnAndLeavesTheCacheOff() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection(
                "litellm_settings: {cache: true, cache_params: {type: redis-semantic, similarity_threshold: 0.8}}"));
        assertThat(config.cache().enabled()).isFalse();
        assertThat(config.ignoredKeys()).contains("litellm_settings.cache_params.type",
                "litellm_settings.cache_params.similarity_threshold");
    }

    @Test
    void callTypesModeAndBoundsAreRead() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                litellm_settings:
                  cache: true
                  cache_params:
                    type: local
                    supported_call_types: [acompletion, aembedding, atranscription]
                    mode: default_off
                    namespace: team-a
                    default_in_memory_ttl: 45
                    max_size_in_memory: 50
                    max_size_in_memory_mb: 4
                    max_size_per_item: 64
                """));
        CacheSettings cache = config.cache();
        assertThat(cache.operations()).containsExactlyInAnyOrder(Operation.CHAT_COMPLETIONS, Operation.EMBEDDINGS);
        assertThat(config.ignoredKeys()).contains("litellm_settings.cache_params.supported_call_types[2]");
        assertThat(cache.defaultOn()).isFalse();
        assertThat(cache.namespace()).hasValue("team-a");
        assertThat(cache.ttl()).hasValue(Duration.ofSeconds(45));
        assertThat(cache.maxItems()).isEqualTo(50);
        assertThat(cache.maxMemoryBytes()).isEqualTo(4L * 1024 * 1024);
        assertThat(cache.maxItemBytes()).isEqualTo(64L * 1024);
    }

    @Test
    void badValuesAreRefusedNamingThePath() {
        assertThat(Configs.problems(Configs.withSection("litellm_settings: {cache: maybe}")))
                .containsExactly("litellm_settings.cache: \"maybe\" (expected: true or false)");
        assertThat(Configs.problems(Configs.withSection("litellm_settings: {cache: true, cache_params: {mode: sometimes}}")))
                .containsExactly("litellm_settings.cache_params.mode: sometimes (expected: one of default_on, default_off)");
        assertThat(Configs.problems(Configs.withSection("litellm_settings: {cache: true, cache_params: {ttl: 0}}")))
                .containsExactly("litellm_settings.cache_params.ttl: 0 (expected: > 0)");
        assertThat(Configs.problems(Configs.withSection("litellm_settings: {cache: true, cache_params: {type: memcached}}")))
                .singleElement().asString().startsWith("litellm_settings.cache_params.type: memcached");
    }

    private static CacheSettings cache(String section) throws ConfigException {
        return Configs.parse(Configs.withSection(section)).cache();
    }
}
