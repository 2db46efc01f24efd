package dev.sluice.call.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.CacheSettings;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.MovableTicker;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ResponseCacheTest {
    private static final String CHAT = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]%s}";
    private final FakeClock clock = new FakeClock();
    private final MovableTicker ticker = new MovableTicker();

    @Test
    void callsOfOtherApisOrTypesAreNotCached() {
        ResponseCache cache = cache(on().operations(Set.of(Operation.CHAT_COMPLETIONS)));
        assertThat(cache.plan("chat_completions", Dialect.OPENAI, Operation.CHAT_COMPLETIONS, "g", request(""))).isPresent();
        assertThat(cache.plan("embeddings", Dialect.OPENAI, Operation.EMBEDDINGS, "g", request(""))).isEmpty();
        assertThat(cache.plan("messages", Dialect.ANTHROPIC, Operation.CHAT_COMPLETIONS, "g", request(""))).isEmpty();
        assertThat(cache(CacheSettings.OFF).plan("chat_completions", Dialect.OPENAI, Operation.CHAT_COMPLETIONS, "g",
                request(""))).isEmpty();
    }

    @Test
    void defaultOffCachesOnlyACallThatAsksAndDefaultOnCachesEveryCallAsInLiteLlm() {
        ResponseCache off = cache(on().defaultOn(false));
        assertThat(plan(off, "")).isEmpty();
        assertThat(plan(off, ",\"cache\":{\"use-cache\":false}")).isEmpty();
        assertThat(plan(off, ",\"cache\":{\"use-cache\":true}")).isPresent();
        ResponseCache defaultOn = cache(on());
        assertThat(plan(defaultOn, "")).isPresent();
        assertThat(plan(defaultOn, ",\"cache\":{\"use-cache\":false}")).isPresent();
    }

    @Test
    void theRequestsControlsShapeThePlan() {
        ResponseCache cache = cache(on().ttl(Optional.of(Duration.ofSeconds(60))).namespace(Optional.of("conf")));
        CachePlan plain = plan(cache, "").orElseThrow();
        assertThat(plain.read()).isTrue();
        assertThat(plain.write()).isTrue();
        assertThat(plain.ttl()).hasValue(Duration.ofSeconds(60));
        assertThat(plain.key()).startsWith("conf:");

        CachePlan controlled = plan(cache, ",\"cache\":{\"no-cache\":true,\"no-store\":true,\"ttl\":5,\"namespace\":\"mine\"}")
                .orElseThrow();
        assertThat(controlled.read()).isFalse();
        assertThat(controlled.write()).isFalse();
        assertThat(controlled.ttl()).hasValue(Duration.ofSeconds(5));
        assertThat(controlled.key()).startsWith("mine:").endsWith(plain.key().substring("conf:".length()));
    }

    @Test
    void aStoredAnswerIsAHitAndNoCacheSkipsTheReadOnly() {
        ResponseCache cache = cache(on());
        CachePlan plan = plan(cache, "").orElseThrow();
        assertThat(cache.lookUp(plan).result()).isEmpty();
        cache.store(plan, answered("{\"id\":\"a\"}"));

        CachedAnswer hit = cache.lookUp(plan).result().orElseThrow();
        assertThat(new String(hit.body(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"a\"}");
        assertThat(hit.promptTokens()).isEqualTo(3);
        assertThat(hit.completionTokens()).isEqualTo(4);
        assertThat(cache.lookUp(plan(cache, ",\"cache\":{\"no-cache\":true}").orElseThrow()).result()).isEmpty();
        assertThat(cache.counts().hits()).isEqualTo(1);
        assertThat(cache.counts().misses()).isEqualTo(1);
        assertThat(cache.counts().stored()).isEqualTo(1);
    }

    @Test
    void noStoreStoresNothing() {
        ResponseCache cache = cache(on());
        cache.store(plan(cache, ",\"cache\":{\"no-store\":true}").orElseThrow(), answered("{}"));
        assertThat(cache.lookUp(plan(cache, "").orElseThrow()).result()).isEmpty();
    }

    @Test
    void sMaxAgeTakesAnEntryUpToThatAgeAndNoOlder() {
        ResponseCache cache = cache(on());
        cache.store(plan(cache, "").orElseThrow(), answered("{}"));
        CachePlan young = plan(cache, ",\"cache\":{\"s-maxage\":10}").orElseThrow();
        CachePlan spelledAsLiteLlmAlsoReadsIt = plan(cache, ",\"cache\":{\"s-max-age\":10}").orElseThrow();

        clock.advance(Duration.ofSeconds(10));
        assertThat(cache.lookUp(young).result()).isPresent();
        assertThat(cache.lookUp(spelledAsLiteLlmAlsoReadsIt).result()).isPresent();
        clock.advance(Duration.ofMillis(1));
        assertThat(cache.lookUp(young).result()).isEmpty();
        assertThat(cache.lookUp(spelledAsLiteLlmAlsoReadsIt).result()).isEmpty();
    }

    @Test
    void theCopiesOfStreamsUnderWayHoldNoMoreThanTheirBound() {
        ResponseCache cache = cache(on());
        assertThat(cache.holdCopy(ResponseCache.STREAM_COPIES_BYTES - 10)).isTrue();
        assertThat(cache.holdCopy(11)).isFalse();
        assertThat(cache.holdCopy(10)).isTrue();
        cache.releaseCopy(ResponseCache.STREAM_COPIES_BYTES);
        assertThat(cache.holdCopy(ResponseCache.STREAM_COPIES_BYTES)).isTrue();
    }

    @Test
    void anAnswerLargerThanMaxSizePerItemIsNotStored() {
        ResponseCache cache = cache(on().maxItemBytes(10));
        CachePlan plan = plan(cache, "").orElseThrow();
        cache.store(plan, answered("0123456789"));
        assertThat(cache.lookUp(plan).result()).isPresent();
        CachePlan other = plan(cache, ",\"n\":2").orElseThrow();
        cache.store(other, answered("0123456789A"));
        assertThat(cache.lookUp(other).result()).isEmpty();
        assertThat(cache.counts().tooLarge()).isEqualTo(1);
    }

    @Test
    void anEntryThatCannotBeReadBackIsAMiss() {
        CacheStore store = ResponseCache.localStore(on().build(), ticker::getAsLong);
        ResponseCache cache = new ResponseCache(on().build(), store, clock);
        CachePlan plan = plan(cache, "").orElseThrow();
        store.put(plan.key(), "not an entry".getBytes(StandardCharsets.UTF_8), Optional.empty());
        assertThat(cache.lookUp(plan).result()).isEmpty();
    }

    private ResponseCache cache(Settings settings) {
        return cache(settings.build());
    }

    private ResponseCache cache(CacheSettings settings) {
        return new ResponseCache(settings, ResponseCache.localStore(settings, ticker::getAsLong), clock);
    }

    private static Optional<CachePlan> plan(ResponseCache cache, String extra) {
        return cache.plan("chat_completions", Dialect.OPENAI, Operation.CHAT_COMPLETIONS, "g", request(extra));
    }

    private static ResponseCache.Answered answered(String body) {
        return new ResponseCache.Answered(200, "application/json", 3, 4, body.getBytes(StandardCharsets.UTF_8));
    }

    private static ModelRequest request(String extra) {
        try {
            return new ModelRequest(Operation.CHAT_COMPLETIONS, Dialect.OPENAI,
                    (ObjectNode) Json.parse(CHAT.formatted(extra).getBytes(StandardCharsets.UTF_8)), "g", false);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Settings on() {
        return new Settings();
    }

    /** Cache settings as a test changes them, one at a time. */
    private static final class Settings {
        private Set<Operation> operations = Set.of(Operation.CHAT_COMPLETIONS, Operation.COMPLETIONS, Operation.EMBEDDINGS);
        private boolean defaultOn = true;
        private Optional<Duration> ttl = Optional.of(CacheSettings.DEFAULT_LOCAL_TTL);
        private Optional<String> namespace = Optional.empty();
        private long maxItemBytes = CacheSettings.DEFAULT_MAX_ITEM_BYTES;

        Settings operations(Set<Operation> value) {
            operations = value;
            return this;
        }

        Settings defaultOn(boolean value) {
            defaultOn = value;
            return this;
        }

        Settings ttl(Optional<Duration> value) {
            ttl = value;
            return this;
        }

        Settings namespace(Optional<String> value) {
            namespace = value;
            return this;
        }

        Settings maxItemBytes(long value) {
            maxItemBytes = value;
            return this;
        }

        CacheSettings build() {
            return new CacheSettings(true, CacheSettings.Type.LOCAL, ttl, namespace, operations, defaultOn,
                    CacheSettings.DEFAULT_MAX_MEMORY_BYTES, 0, maxItemBytes, Optional.empty(), CacheSettings.DEFAULT_SOCKET_TIMEOUT);
        }
    }
}
