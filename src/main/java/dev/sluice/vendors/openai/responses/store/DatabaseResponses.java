package dev.sluice.vendors.openai.responses.store;

import dev.sluice.store.ResponseRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoredResponse;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The responses of a gateway with a store, in {@code sluice_responses}: kept across restarts
 * and seen by every replica sharing the store. The repository blocks, so each call runs on a
 * worker and its future completes on the caller's context; a store that fails fails the
 * future with its {@link StoreException}.
 *
 * <p>Bounded by {@link ResponseLimits}: each response is served until its expiry, none
 * larger than {@code maxBytes} is kept, and every {@code pruneEvery}-th save of this
 * process (the first included, so a restart prunes soon) also drops the expired rows and
 * then the oldest beyond {@code maxCount}, on the same worker after the save. A prune that
 * fails is logged and does not fail the save: the next one catches up.
 */
public final class DatabaseResponses implements ResponseStore {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseResponses.class);

    /**
     * Saves between prunes. Finding the oldest row beyond {@code maxCount} walks that many
     * index entries, so a prune is not cheap; once in a thousand saves it costs little per
     * save, and the table goes at most a thousand rows per replica beyond its bound.
     */
    public static final int DEFAULT_PRUNE_EVERY = 1_000;

    private final Vertx vertx;
    private final ResponseRepository repository;
    private final ResponseLimits limits;
    private final Clock clock;
    private final int pruneEvery;
    private final AtomicLong saves = new AtomicLong();

    public DatabaseResponses(Vertx vertx, ResponseRepository repository, ResponseLimits limits, Clock clock) {
        this(vertx, repository, limits, clock, DEFAULT_PRUNE_EVERY);
    }

    /** @param pruneEvery how many saves from one prune to the next; at least one */
    public DatabaseResponses(Vertx vertx, ResponseRepository repository, ResponseLimits limits, Clock clock, int pruneEvery) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.repository = Objects.requireNonNull(repository, "repository");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (pruneEvery < 1) {
            throw new IllegalArgumentException("pruneEvery: " + pruneEvery + " (expected: >= 1)");
        }
        this.pruneEvery = pruneEvery;
    }

    @Override
    public Future<Void> save(StoredResponse response) {
        try {
            limits.check(response);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
        boolean prune = saves.getAndIncrement() % pruneEvery == 0;
        return vertx.executeBlocking(() -> {
            insert(response);
            if (prune) {
                prune();
            }
            return null;
        }, false);
    }

    private void insert(StoredResponse response) {
        try {
            repository.save(response);
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.CONFLICT) {
                throw new IllegalStateException("response " + response.id() + ": the id is already taken", e);
            }
            throw e;
        }
    }

    private void prune() {
        try {
            int dropped = repository.prune(clock.instant(), limits.maxCount());
            if (dropped > 0) {
                LOG.debug("responses: dropped {} expired or beyond the newest {}", dropped, limits.maxCount());
            }
        } catch (StoreException e) {
            LOG.warn("responses: could not drop the expired and the oldest responses, the next prune will: {}", e.getMessage());
        }
    }

    @Override
    public Future<Optional<StoredResponse>> find(String id, String owner) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        return vertx.executeBlocking(() -> repository.find(id, owner, clock.instant()), false);
    }

    @Override
    public Future<Optional<StoredResponse>> findAny(String id) {
        Objects.requireNonNull(id, "id");
        return vertx.executeBlocking(() -> repository.findAny(id, clock.instant()), false);
    }

    @Override
    public Future<Boolean> delete(String id, String owner) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        return vertx.executeBlocking(() -> repository.delete(id, owner, clock.instant()), false);
    }

    @Override
    public ResponseLimits limits() {
        return limits;
    }
}
