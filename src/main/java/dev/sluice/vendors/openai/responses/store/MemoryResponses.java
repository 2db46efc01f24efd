package dev.sluice.vendors.openai.responses.store;

import dev.sluice.store.StoredResponse;
import io.vertx.core.Future;
import java.time.Clock;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.Optional;

/**
 * The responses of a gateway without a store, in its heap: lost on restart and seen by
 * this process only. Bounded by {@link ResponseLimits}: at most {@code maxCount} responses
 * holding at most {@code maxBytes} of JSON, each served until its expiry; when a save goes
 * beyond a bound, the oldest responses are dropped until it fits again. Safe to call from
 * any thread; every future is already complete when it is returned.
 *
 * <h2>Design notes</h2>
 * <p>Responses are held in the order they were saved, which is the order they expire in
 * when each is kept for {@code maxAge} (the clock does not go back between saves). A save
 * first drops the expired ones at the head, then the oldest until the count and the bytes
 * fit: each step looks at the head only, so a save costs the same with ten or ten thousand
 * responses kept. A response saved with a shorter life than those before it is never
 * served past its expiry (a lookup checks it) but counts toward the bounds until the older
 * ones have gone.
 */
public final class MemoryResponses implements ResponseStore {
    private final ResponseLimits limits;
    private final Clock clock;
    /** By id, oldest save first. Guarded by {@code this}. */
    private final LinkedHashMap<String, Kept> kept = new LinkedHashMap<>();
    /** The {@link StoredResponse#sizeBytes()} of everything kept. Guarded by {@code this}. */
    private long bytes;

    /** A response with its size, measured once: measuring reads all of its text. */
    private record Kept(StoredResponse response, long bytes) {}

    public MemoryResponses(ResponseLimits limits, Clock clock) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Future<Void> save(StoredResponse response) {
        try {
            limits.check(response);
            keep(new Kept(response, response.sizeBytes()));
            return Future.succeededFuture();
        } catch (IllegalArgumentException | IllegalStateException e) {
            return Future.failedFuture(e);
        }
    }

    private synchronized void keep(Kept response) {
        String id = response.response().id();
        dropExpired();
        if (kept.containsKey(id)) {
            throw new IllegalStateException("response " + id + ": the id is already taken");
        }
        kept.put(id, response);
        bytes += response.bytes();
        Iterator<Kept> oldestFirst = kept.values().iterator();
        while (kept.size() > limits.maxCount() || bytes > limits.maxBytes()) {
            bytes -= oldestFirst.next().bytes();
            oldestFirst.remove();
        }
    }

    private void dropExpired() {
        Iterator<Kept> oldestFirst = kept.values().iterator();
        while (oldestFirst.hasNext()) {
            Kept oldest = oldestFirst.next();
            if (!oldest.response().expiredAt(clock.instant())) {
                return;
            }
            bytes -= oldest.bytes();
            oldestFirst.remove();
        }
    }

    @Override
    public Future<Optional<StoredResponse>> find(String id, String owner) {
        return Future.succeededFuture(live(id, owner).map(Kept::response));
    }

    @Override
    public synchronized Future<Optional<StoredResponse>> findAny(String id) {
        Kept found = kept.get(Objects.requireNonNull(id, "id"));
        return Future.succeededFuture(found == null ? Optional.empty() : live(id, found.response().owner()).map(Kept::response));
    }

    @Override
    public Future<Boolean> delete(String id, String owner) {
        synchronized (this) {
            Optional<Kept> found = live(id, owner);
            found.ifPresent(this::drop);
            return Future.succeededFuture(found.isPresent());
        }
    }

    /** The response by this id when {@code owner} saved it and it has not expired; an expired one is dropped. */
    private synchronized Optional<Kept> live(String id, String owner) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Kept found = kept.get(id);
        if (found == null || !found.response().owner().equals(owner)) {
            return Optional.empty();
        }
        if (found.response().expiredAt(clock.instant())) {
            drop(found);
            return Optional.empty();
        }
        return Optional.of(found);
    }

    private void drop(Kept response) {
        kept.remove(response.response().id());
        bytes -= response.bytes();
    }

    /** How many responses are kept, expired ones not yet dropped included. */
    public synchronized int count() {
        return kept.size();
    }

    /** The bytes of JSON kept, as {@link StoredResponse#sizeBytes()} counts them. */
    public synchronized long bytes() {
        return bytes;
    }

    @Override
    public ResponseLimits limits() {
        return limits;
    }
}
