package dev.sluice.call.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.FakeTime;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LocalCacheStoreTest {
    /** Time that moves only when the test moves it. */
    private final FakeTime time = new FakeTime();

    @Test
    void anEntryLivesForItsTtlAndNotANanosecondMore() {
        LocalCacheStore store = new LocalCacheStore(1 << 20, 0, Duration.ofSeconds(600), time.ticker()::getAsLong);
        store.put("k", new byte[] {1}, Optional.of(Duration.ofSeconds(5)));

        time.advance(Duration.ofSeconds(5).minusNanos(1));
        assertThat(get(store, "k")).isPresent();
        time.advance(Duration.ofNanos(1));
        assertThat(get(store, "k")).isEmpty();
    }

    @Test
    void anEntryWithoutItsOwnTtlLivesForTheDefault() {
        LocalCacheStore store = new LocalCacheStore(1 << 20, 0, Duration.ofSeconds(600), time.ticker()::getAsLong);
        store.put("k", new byte[] {1}, Optional.empty());

        time.advance(Duration.ofSeconds(600).minusNanos(1));
        assertThat(get(store, "k")).isPresent();
        time.advance(Duration.ofNanos(1));
        assertThat(get(store, "k")).isEmpty();
    }

    @Test
    void theEntriesHoldNoMoreThanTheBytesAllowed() {
        LocalCacheStore store = new LocalCacheStore(10_000, 0, Duration.ofSeconds(600), time.ticker()::getAsLong);
        for (int i = 0; i < 100; i++) {
            store.put("k" + i, new byte[1_000], Optional.empty());
        }
        CacheStore.Held held = store.held().orElseThrow();
        assertThat(held.bytes()).isLessThanOrEqualTo(10_000);
        assertThat(held.entries()).isBetween(1L, 9L);
    }

    @Test
    void withMaxSizeInMemoryTheNumberOfEntriesIsBoundToo() {
        LocalCacheStore store = new LocalCacheStore(1 << 20, 3, Duration.ofSeconds(600), time.ticker()::getAsLong);
        for (int i = 0; i < 10; i++) {
            store.put("k" + i, new byte[] {1}, Optional.empty());
        }
        assertThat(store.held().orElseThrow().entries()).isEqualTo(3);
    }

    private static Optional<byte[]> get(LocalCacheStore store, String key) {
        return store.get(key).result();
    }
}
