package dev.sluice.call.cache;

import dev.sluice.config.CacheSettings;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The exact response cache ({@code litellm_settings.cache}): decides per call whether its
 * answer is read from the cache and stored in it ({@link #plan}), looks an answer up
 * ({@link #lookUp}) and stores one ({@link #store}), and counts what it did for
 * {@code /metrics}. Calls of the OpenAI entry APIs the settings name are cached
 * ({@code supported_call_types}); what Anthropic's Messages API and the Responses API answer
 * is not, since the Responses API keeps state between calls.
 *
 * <p>Nothing here fails a call: a store that cannot answer makes a miss, an entry that cannot
 * be read back is a miss, and an answer too large ({@code max_size_per_item}) is not stored.
 */
public final class ResponseCache implements AutoCloseable {
    private final CacheSettings settings;
    private final CacheStore store;
    private final Clock clock;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder stored = new LongAdder();
    private final LongAdder tooLarge = new LongAdder();
    /** Bytes the copies of streams under way hold, bounded by {@link #STREAM_COPIES_BYTES}. */
    private final AtomicLong copying = new AtomicLong();

    /**
     * What the copies of all streams under way may hold together: past it a stream is served
     * and not stored, so a burst of long streams cannot fill the heap with copies.
     */
    public static final long STREAM_COPIES_BYTES = 16L * 1024 * 1024;

    public ResponseCache(CacheSettings settings, CacheStore store, Clock clock) {
        this.settings = settings;
        this.store = store;
        this.clock = clock;
    }

    /** The store for {@code type: local}: in memory, bounded as the settings say, on {@code ticker}. */
    public static CacheStore localStore(CacheSettings settings, com.github.benmanes.caffeine.cache.Ticker ticker) {
        return new LocalCacheStore(settings.maxMemoryBytes(), settings.maxItems(),
                settings.ttl().orElse(CacheSettings.DEFAULT_LOCAL_TTL), ticker);
    }

    /**
     * What the cache does for a call, or empty when it does nothing: the cache is off, the call
     * is of a type it does not keep, or {@code mode: default_off} and the call did not ask.
     *
     * @param entryApi the route's name, e.g. {@code chat_completions}
     * @param request  the request as its entry API decoded it
     * @throws dev.sluice.wire.ApiError 400 when the body's {@code cache} controls are malformed
     */
    public Optional<CachePlan> plan(String entryApi, Dialect dialect, Operation operation, String group, ModelRequest request) {
        if (dialect != Dialect.OPENAI || !settings.caches(operation)) {
            return Optional.empty();
        }
        CacheControls controls = CacheControls.of(request.body());
        // As in LiteLLM: with default_on every call is cached, and use-cache opts a call in only under default_off.
        if (!settings.defaultOn() && !controls.useCache().orElse(false)) {
            return Optional.empty();
        }
        String key = CacheKey.of(entryApi, group, request.body(), request.vendorHeaders(),
                controls.namespace().or(settings::namespace));
        return Optional.of(new CachePlan(key, !controls.noCache(), !controls.noStore(), controls.ttl().or(settings::ttl),
                controls.maxAge()));
    }

    /** The entry for {@code plan}, if there is one young enough; a hit or a miss is counted. */
    public Future<Optional<CachedAnswer>> lookUp(CachePlan plan) {
        if (!plan.read()) {
            return Future.succeededFuture(Optional.empty());
        }
        return store.get(plan.key()).map(bytes -> {
            Optional<CachedAnswer> entry = bytes.flatMap(CachedAnswer::decode).filter(answer -> youngEnough(answer, plan));
            (entry.isPresent() ? hits : misses).increment();
            return entry;
        });
    }

    private boolean youngEnough(CachedAnswer answer, CachePlan plan) {
        return plan.maxAge().isEmpty()
                || !Duration.between(answer.storedAt(), clock.instant()).minus(plan.maxAge().get()).isPositive();
    }

    /**
     * Stores an answer the caller was just given, unless the plan says not to or it is too
     * large; completes once it is stored, or could not be.
     */
    public Future<Void> store(CachePlan plan, Answered answered) {
        if (!plan.write()) {
            return Future.succeededFuture();
        }
        if (answered.body().length > settings.maxItemBytes()) {
            tooLarge.increment();
            return Future.succeededFuture();
        }
        CachedAnswer entry = new CachedAnswer(clock.instant(), answered.status(), answered.contentType(),
                answered.promptTokens(), answered.completionTokens(), answered.body());
        return store.put(plan.key(), entry.encode(), plan.ttl()).onSuccess(v -> stored.increment());
    }

    /** An answer as the caller got it, to store. */
    public record Answered(int status, String contentType, long promptTokens, long completionTokens, byte[] body) {}

    /** The largest answer stored, in bytes: what a stream's copy may hold before it gives up. */
    public long maxItemBytes() {
        return settings.maxItemBytes();
    }

    /** Takes {@code bytes} more for a stream's copy, if the copies of all streams leave room for them. */
    public boolean holdCopy(long bytes) {
        long held;
        do {
            held = copying.get();
            if (held + bytes > STREAM_COPIES_BYTES) {
                return false;
            }
        } while (!copying.compareAndSet(held, held + bytes));
        return true;
    }

    /** Gives back what a stream's copy held. */
    public void releaseCopy(long bytes) {
        copying.addAndGet(-bytes);
    }

    /** What the cache has done since start, for {@code /metrics}. */
    public Counts counts() {
        return new Counts(store.type(), hits.sum(), misses.sum(), stored.sum(), tooLarge.sum(), store.unavailable(), store.held());
    }

    /**
     * @param unavailable reads and writes the store could not make (a miss or a dropped write each)
     * @param held        entries and bytes held in this process (a local cache)
     */
    public record Counts(String type, long hits, long misses, long stored, long tooLarge, long unavailable,
            Optional<CacheStore.Held> held) {}

    @Override
    public void close() {
        store.close();
    }
}
