package dev.sluice.store;

import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's log of its outages: one WARN when operations start failing because the database
 * cannot be reached, and one more for each other cause within the same outage (a refused
 * connection, then a timeout), never one per failed operation; one INFO when an operation
 * succeeds again, with how long it lasted and how many operations failed meanwhile.
 *
 * <p>A gateway whose database is away fails every key look-up of a key never seen, every
 * shipper post and every readiness probe; logging each (the pool and the cache each did, with
 * a stack trace) buried the one thing an operator needs: that the database is away, why, and
 * when it came back. Causes differing only in their numbers (a port, milliseconds waited) are
 * one cause; at most {@link #MAX_CAUSES} are told per outage. Thread-safe.
 */
final class StoreOutageLog {
    private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.store");
    /** Causes told within one outage at most. */
    static final int MAX_CAUSES = 4;

    private final String location;
    private final LongSupplier nanoTime;
    /** Read without the lock on every operation that succeeds: only a change takes it. */
    private volatile boolean down;
    private long since;
    private long failures;
    private final Set<String> causes = new HashSet<>();

    /** @param location the database, as its lines name it ({@link StoreLocation#describe}) */
    StoreOutageLog(String location, LongSupplier nanoTime) {
        this.location = location;
        this.nanoTime = nanoTime;
    }

    /** An operation failed because the database could not be reached, for {@code reason}. */
    void failed(String reason) {
        synchronized (causes) {
            failures++;
            if (!down) {
                down = true;
                since = nanoTime.getAsLong();
            }
            if (causes.size() < MAX_CAUSES && causes.add(reason.replaceAll("\\d+", "#"))) {
                LOG.warn("store.unreachable location={} reason={}; keys seen before keep working, spend waits in the journal, "
                        + "and this is logged again when the store answers", location, reason);
            }
        }
    }

    /** An operation succeeded: an outage, if there was one, is over. */
    void answered() {
        if (!down) {
            return;
        }
        synchronized (causes) {
            if (!down) {
                return;
            }
            down = false;
            LOG.info("store.reachable location={} unreachable_for={}s failed_operations={}", location,
                    String.format(java.util.Locale.ROOT, "%.1f", (nanoTime.getAsLong() - since) / 1e9), failures);
            failures = 0;
            causes.clear();
        }
    }

    /** Whether the last operation found the database unreachable. */
    boolean down() {
        return down;
    }
}
