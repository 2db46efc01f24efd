package dev.sluice.call.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.Optional;

/**
 * Entries in this gateway's memory ({@code type: local}), bounded by the bytes they hold and,
 * when {@code max_size_in_memory} is set, by their number; the least used go first. Each
 * entry lives for its own ttl. A read or write is a map operation and completes at once.
 */
final class LocalCacheStore implements CacheStore {
    /** An entry and how long it lives, in nanoseconds of the cache's ticker. */
    private record Entry(byte[] bytes, long lifeNanos) {}

    private final Cache<String, Entry> entries;

    /**
     * @param maxBytes   what all entries may hold
     * @param maxItems   how many entries there may be; 0 for no bound but bytes
     * @param defaultTtl an entry's life when its write names none
     */
    LocalCacheStore(long maxBytes, int maxItems, Duration defaultTtl, Ticker ticker) {
        // With a bound on the number too, every entry weighs at least its share of the bytes,
        // so no more than maxItems fit: one weight bounds both.
        long leastWeight = maxItems > 0 ? Math.max(1, maxBytes / maxItems) : 1;
        long defaultNanos = defaultTtl.toNanos();
        this.entries = Caffeine.newBuilder()
                .ticker(ticker)
                .executor(Runnable::run)
                .maximumWeight(maxBytes)
                .<String, Entry>weigher((key, entry) -> (int) Math.min(Integer.MAX_VALUE,
                        Math.max(leastWeight, entry.bytes().length + 2L * key.length() + 64)))
                .expireAfter(new Expiry<String, Entry>() {
                    @Override
                    public long expireAfterCreate(String key, Entry entry, long now) {
                        return entry.lifeNanos() > 0 ? entry.lifeNanos() : defaultNanos;
                    }

                    @Override
                    public long expireAfterUpdate(String key, Entry entry, long now, long left) {
                        return expireAfterCreate(key, entry, now);
                    }

                    @Override
                    public long expireAfterRead(String key, Entry entry, long now, long left) {
                        return left;
                    }
                })
                .build();
    }

    @Override
    public String type() {
        return "local";
    }

    @Override
    public Future<Optional<byte[]>> get(String key) {
        Entry entry = entries.getIfPresent(key);
        return Future.succeededFuture(entry == null ? Optional.empty() : Optional.of(entry.bytes()));
    }

    @Override
    public Future<Void> put(String key, byte[] entry, Optional<Duration> ttl) {
        entries.put(key, new Entry(entry, ttl.map(Duration::toNanos).orElse(0L)));
        return Future.succeededFuture();
    }

    @Override
    public long unavailable() {
        return 0;
    }

    @Override
    public Optional<Held> held() {
        entries.cleanUp();
        long bytes = entries.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
        return Optional.of(new Held(entries.estimatedSize(), bytes));
    }
}
