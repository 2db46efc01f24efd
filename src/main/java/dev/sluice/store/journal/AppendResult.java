package dev.sluice.store.journal;

/**
 * What {@link SpendJournal#append} did with a row: accepted it, written to the operating
 * system at {@link #position()}, or refused it for the reason in {@link #outcome()}. A refused
 * row is not kept anywhere: the caller decides (refuse the billable call, or keep the row
 * some other way).
 *
 * @param position for an accepted row, the journal position just past it, to give
 *                 {@link SpendJournal#awaitDurable}; -1 for a refused one
 */
public record AppendResult(Outcome outcome, long position) {
    static final AppendResult FULL = new AppendResult(Outcome.FULL, -1);
    static final AppendResult CLOSED = new AppendResult(Outcome.CLOSED, -1);
    static final AppendResult FAILED = new AppendResult(Outcome.FAILED, -1);

    /** Why a row was or was not taken. */
    public enum Outcome {
        /** Written; the group commit makes it durable within the commit interval. */
        ACCEPTED,
        /** The journal is at its bound: the shipper is behind, likely because the sink is unreachable. */
        FULL,
        /** The journal is closed. */
        CLOSED,
        /** The disk refused the write (logged); nothing of the row was kept. */
        FAILED
    }

    public boolean accepted() {
        return outcome == Outcome.ACCEPTED;
    }
}
