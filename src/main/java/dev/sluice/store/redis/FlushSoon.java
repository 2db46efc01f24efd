package dev.sluice.store.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Folds a burst of changes into one Redis write: the first change after a flush schedules the
 * next one a moment later on the link's event loop, and the changes made meanwhile ride along.
 * Under load this turns a write per request into a write per moment; an idle store schedules
 * nothing.
 */
public final class FlushSoon {
    /** How long changes gather before they are written. */
    public static final Duration DEFAULT_DELAY = Duration.ofMillis(5);

    private final RedisLink link;
    private final Duration delay;
    private final Runnable flush;
    private final AtomicBoolean scheduled = new AtomicBoolean();

    /** @param flush writes whatever has gathered; runs on the link's event loop */
    public FlushSoon(RedisLink link, Duration delay, Runnable flush) {
        this.link = link;
        this.delay = delay;
        this.flush = flush;
    }

    /** Something changed: a flush is due within the delay. Cheap when one is already due. */
    public void changed() {
        if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
            link.later(delay, () -> {
                // Cleared before the flush reads what gathered: a change after this point schedules its own.
                scheduled.set(false);
                flush.run();
            });
        }
    }
}
