package dev.sluice.store;

import java.util.Objects;

/**
 * A place in a spend journal: every record before byte {@code offset} of the segment numbered
 * {@code segment}, in the journal whose folder has the id {@code journal}. Positions of one
 * journal are ordered by segment, then offset; a segment's end and the next segment's start
 * are the same place in effect, as no record lies between them.
 */
public record JournalMark(String journal, long segment, long offset) {
    public JournalMark {
        Objects.requireNonNull(journal, "journal");
        if (segment < 0 || offset < 0) {
            throw new IllegalArgumentException("segment " + segment + ", offset " + offset + " (expected: >= 0)");
        }
    }

    /** Whether every record before {@code other} is also before this mark: same journal, not behind it. */
    public boolean covers(JournalMark other) {
        return journal.equals(other.journal)
                && (segment > other.segment || segment == other.segment && offset >= other.offset);
    }
}
