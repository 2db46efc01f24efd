package dev.sluice.state.sync;

import dev.sluice.time.Scheduler;
import java.util.concurrent.Future;

/**
 * What keeps one kind of stored state in step on every replica: a {@link StorePoller} that
 * reads the store now and then every interval, started at once or once the store is ready,
 * and stopped on close.
 *
 * @param <S> the sync itself, so that starting it hands it back
 */
public abstract sealed class StoreSync<S extends StoreSync<S>> implements AutoCloseable
        permits StoredModelSync, StoredRouterSettingsSync {

    StoreSync() {}

    /** The poller that reads the store. */
    abstract StorePoller<?> poller();

    /** Reads the store once now (serving what it holds from the first request), then every interval on {@code scheduler}. */
    public S start(Scheduler scheduler) {
        poller().start(scheduler);
        return self();
    }

    /**
     * Starts reading the store in the background once {@code ready} completes (its schema is
     * applied), then every interval, on {@code scheduler}: for a store that was away at start-up.
     */
    public S startAfter(Future<?> ready, Scheduler scheduler) {
        poller().startAfter(ready, scheduler);
        return self();
    }

    @Override
    public void close() {
        poller().close();
    }

    @SuppressWarnings("unchecked")
    private S self() {
        return (S) this;
    }
}
