package dev.sluice.store.journal;

import dev.sluice.store.JournalMark;
import dev.sluice.store.SpendRow;
import java.util.List;

/**
 * Pending records read from the journal in order, for the shipper to post and then
 * {@link SpendJournal#acknowledge acknowledge}: the rows between journal positions
 * {@code start} and {@code end}, each with the {@link JournalMark} just past it
 * ({@code marks.get(i)} is row {@code i}'s). Damaged records in that stretch were skipped, so
 * a batch may cover bytes and hold no row; acknowledging it still lets its segments go.
 */
record JournalBatch(List<SpendRow> rows, List<JournalMark> marks, long start, long end) {
    boolean isEmpty() {
        return end == start;
    }
}
