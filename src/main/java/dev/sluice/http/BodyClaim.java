package dev.sluice.http;

/**
 * One request body's bytes held against the {@link BodyBudget} while it arrives and until the
 * call is done with it. While it still arrives, a body further along may make it give way
 * ({@link BodyBudget#hold}): it lets go of all it held, and is told so by {@code onEvicted},
 * on whatever thread evicts it. Thread-safe: it is held on its request's event loop and may
 * be evicted from another's.
 */
final class BodyClaim {
    private final BodyBudget budget;
    private final Runnable onEvicted;
    private long bytes;
    /**
     * When it became one that may give way: among bodies that hold as much, the earlier goes
     * on, so a tie never starves both. Taken only then, so a small body takes no number.
     */
    private long order = Long.MAX_VALUE;
    private boolean arriving = true;
    private boolean released;

    BodyClaim(BodyBudget budget, Runnable onEvicted) {
        this.budget = budget;
        this.onEvicted = onEvicted;
    }

    /** Holds {@code more} bytes when the budget has room beside those held now; false, holding nothing more, when not. */
    boolean tryHold(long more) {
        boolean registers;
        synchronized (this) {
            if (released || !budget.tryHold(more)) {
                return false;
            }
            registers = arriving && bytes < budget.givesWayFrom() && bytes + more >= budget.givesWayFrom();
            bytes += more;
            if (registers) {
                order = budget.nextOrder();
            }
        }
        if (registers) {
            budget.mayGiveWay(this);
        }
        return true;
    }

    /**
     * The whole body arrived: it is in use from now on, and never gives way. False when it
     * gave way first: what arrived is not the whole body, and the body is refused.
     */
    boolean arrived() {
        synchronized (this) {
            if (released) {
                return false;
            }
            arriving = false;
        }
        budget.givesWayNoMore(this);
        return true;
    }

    /** Lets go of every byte held; nothing more is held after. */
    void release() {
        letGo(false);
    }

    /** Whether this claim is ahead of {@code other}: it holds more, or as much and came first. */
    boolean isAheadOf(BodyClaim other) {
        long mine = held();
        long others = other.held(); // read apart, never one lock inside another
        return mine > others || mine == others && order() < other.order();
    }

    private synchronized long order() {
        return order;
    }

    synchronized long held() {
        return bytes;
    }

    /** Whether it let go of its bytes: released, or made to give way. */
    synchronized boolean isReleased() {
        return released;
    }

    /** Gives way to a body further along, when still arriving: lets go of its bytes and is told. */
    boolean evict() {
        if (!letGo(true)) {
            return false;
        }
        onEvicted.run();
        return true;
    }

    /** Lets go of every byte held, once; {@code onlyArriving}: not when the whole body is in, and in use. */
    private boolean letGo(boolean onlyArriving) {
        synchronized (this) {
            if (released || onlyArriving && !arriving) {
                return false;
            }
            released = true;
            arriving = false;
            budget.release(bytes);
            bytes = 0;
        }
        budget.givesWayNoMore(this);
        return true;
    }
}
