package dev.sluice.store.journal;

import dev.sluice.store.JournalMark;
import dev.sluice.store.SpendRow;
import dev.sluice.store.SpendSink;
import dev.sluice.store.StoreFailures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A sink that keeps the call ids it was posted, in order, and each post's size and mark. It can be
 * taken down (posts fail as an unreachable database's do) and can refuse rows the way a
 * database refuses a value it cannot store: the whole post fails while it holds one.
 */
final class RecordingSink implements SpendSink {
    private final List<String> posted = new ArrayList<>();
    private final List<Integer> batches = new ArrayList<>();
    private final List<JournalMark> marks = new ArrayList<>();
    private final Predicate<SpendRow> refuses;
    final AtomicInteger failedPosts = new AtomicInteger();
    volatile boolean down;
    /** Goes down once this many more posts have landed; 0 for never. */
    volatile int downAfter;
    /**
     * Whether it keeps marks, as the embedded store's ledger does (and says how far it logged a
     * journal), or not, as PostgreSQL's, which is idempotent by call id instead.
     */
    volatile boolean keepsMarks;
    /** How far it logged the journal, when it keeps marks: moved by each post, or set by a test. */
    volatile Optional<JournalMark> kept = Optional.empty();

    RecordingSink() {
        this(row -> false);
    }

    RecordingSink(Predicate<SpendRow> refuses) {
        this.refuses = refuses;
    }

    @Override
    public synchronized int post(List<SpendRow> rows, JournalMark through) {
        if (down) {
            failedPosts.incrementAndGet();
            throw StoreFailures.unavailable("post spend: connection refused");
        }
        for (SpendRow row : rows) {
            if (refuses.test(row)) {
                throw StoreFailures.refused("post spend: value too long for call " + row.callId());
            }
        }
        if (keepsMarks && kept.isPresent() && kept.get().covers(through)) {
            return 0;
        }
        rows.forEach(row -> posted.add(row.callId()));
        batches.add(rows.size());
        marks.add(through);
        kept = Optional.of(through);
        if (downAfter > 0 && --downAfter == 0) {
            down = true;
        }
        return rows.size();
    }

    synchronized List<String> posted() {
        return List.copyOf(posted);
    }

    @Override
    public Optional<JournalMark> shippedThrough(String journal) {
        return keepsMarks ? kept.filter(mark -> mark.journal().equals(journal)) : Optional.empty();
    }

    synchronized List<JournalMark> marks() {
        return List.copyOf(marks);
    }

    synchronized List<Integer> batches() {
        return List.copyOf(batches);
    }
}
