package dev.sluice.accounts.limits;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The counts of one scope: requests admitted and tokens used in its current calendar minute,
 * and calls in flight. Every read and write happens under its lock; {@link RateLimits} holds
 * the locks of all of a request's scopes at once while it decides.
 */
final class MinuteMeter {
    private final ReentrantLock lock = new ReentrantLock();
    private long minute = Long.MIN_VALUE;
    private long requests;
    private long tokens;
    private long inFlight;

    void lock() {
        lock.lock();
    }

    void unlock() {
        lock.unlock();
    }

    /** Under the lock: starts the counts again if {@code now} is in a later minute than they are. */
    void moveTo(long now) {
        if (now > minute) {
            minute = now;
            requests = 0;
            tokens = 0;
        }
    }

    /** Under the lock, after {@link #moveTo}: the counts as they stand. */
    RateLimits.Usage usageHeld() {
        return new RateLimits.Usage(requests, tokens, inFlight);
    }

    /** Under the lock, after {@link #moveTo}: counts one admitted request. */
    void admit() {
        requests++;
        inFlight++;
    }

    /**
     * One admitted call ended in {@code endMinute} having used {@code callTokens}. Tokens
     * for a minute the meter has already left are dropped: they can no longer count.
     */
    void end(long callTokens, long endMinute) {
        lock.lock();
        try {
            inFlight--;
            moveTo(endMinute);
            if (endMinute == minute) {
                tokens += callTokens;
            }
        } finally {
            lock.unlock();
        }
    }

    RateLimits.Usage usage(long now) {
        lock.lock();
        try {
            return now == minute
                    ? new RateLimits.Usage(requests, tokens, inFlight)
                    : new RateLimits.Usage(0, 0, inFlight);
        } finally {
            lock.unlock();
        }
    }
}
