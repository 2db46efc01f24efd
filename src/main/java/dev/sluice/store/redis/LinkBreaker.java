package dev.sluice.store.redis;

import java.time.Clock;
import java.time.Duration;

/**
 * When the Redis link counts as down: a circuit breaker with hysteresis, so one slow answer is
 * not an outage and a Redis that just came back is not taken for up, then down, many times over.
 *
 * <h2>Design notes</h2>
 * <b>Opening.</b> {@link #FAILURES_TO_OPEN} calls in a row left unanswered past their budget open
 * it; any answer in between starts the count again. A lost connection opens it at once, since no
 * call on it can be answered. A stopped Redis therefore costs the few calls in flight when it
 * stopped their budget (they time out together), not every call after.
 *
 * <p><b>Closing.</b> While open, the link reconnects after a wait that doubles from
 * {@code firstRetry} to {@code longestRetry}; a new connection is only probed, and the breaker
 * closes after {@link #PROBES_TO_CLOSE} probes in a row answered within the budget. A probe left
 * unanswered opens it again without counting a new outage.
 *
 * <p><b>Hysteresis.</b> The wait goes back to {@code firstRetry} only once the link has stayed
 * up for {@code stableAfter}: a Redis that flaps is retried less and less often rather than at
 * the pace of a first outage. Thread-safe; time from the injected clock.
 */
public final class LinkBreaker {
    /** Calls in a row left unanswered past their budget that take the link down. */
    public static final int FAILURES_TO_OPEN = 3;
    /** Probes in a row answered within the budget that bring it back up. */
    static final int PROBES_TO_CLOSE = 2;

    private final Clock clock;
    private final Duration firstRetry;
    private final Duration longestRetry;
    private final Duration stableAfter;

    private boolean open = true;
    private int unansweredInARow;
    private int probesAnsweredInARow;
    private Duration nextWait;
    /** When it last closed (epoch ms); the wait starts again from the first only after {@link #stableAfter}. */
    private long closedAtMillis = Long.MIN_VALUE;

    /** Starts open: the link is down until its first connection has answered its probes. */
    LinkBreaker(Clock clock, Duration firstRetry, Duration longestRetry, Duration stableAfter) {
        if (firstRetry.compareTo(longestRetry) > 0) {
            throw new IllegalArgumentException("firstRetry: " + firstRetry + " (expected: <= longestRetry, " + longestRetry + ")");
        }
        this.clock = clock;
        this.firstRetry = firstRetry;
        this.longestRetry = longestRetry;
        this.stableAfter = stableAfter;
        this.nextWait = firstRetry;
    }

    synchronized boolean isOpen() {
        return open;
    }

    /** A call was answered (an error reply included: Redis answered it). */
    synchronized void answered() {
        unansweredInARow = 0;
    }

    /** A call got no answer within its budget. Returns whether this opened the breaker. */
    synchronized boolean unanswered() {
        if (open) {
            return false;
        }
        unansweredInARow++;
        if (unansweredInARow < FAILURES_TO_OPEN) {
            return false;
        }
        open();
        return true;
    }

    /** The connection was lost, or a probe went unanswered: open at once. Returns whether it was closed. */
    synchronized boolean lost() {
        if (open) {
            probesAnsweredInARow = 0;
            return false;
        }
        open();
        return true;
    }

    /** A probe of a new connection was answered in time. Returns whether this closed the breaker. */
    synchronized boolean probeAnswered() {
        if (!open) {
            return false;
        }
        probesAnsweredInARow++;
        if (probesAnsweredInARow < PROBES_TO_CLOSE) {
            return false;
        }
        open = false;
        unansweredInARow = 0;
        probesAnsweredInARow = 0;
        closedAtMillis = clock.millis();
        return true;
    }

    /** How long to wait before the next attempt to connect; each call doubles the next, up to the longest. */
    synchronized Duration retryWait() {
        Duration wait = nextWait;
        Duration doubled = nextWait.multipliedBy(2);
        nextWait = doubled.compareTo(longestRetry) > 0 ? longestRetry : doubled;
        return wait;
    }

    private void open() {
        open = true;
        unansweredInARow = 0;
        probesAnsweredInARow = 0;
        // A link that stayed up long enough starts its retries afresh; one that flapped keeps backing off.
        if (closedAtMillis != Long.MIN_VALUE && clock.millis() - closedAtMillis >= stableAfter.toMillis()) {
            nextWait = firstRetry;
        }
    }
}
