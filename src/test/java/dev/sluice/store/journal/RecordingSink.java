package dev.sluice.store.journal;

import dev.sluice.store.SpendRow;
import dev.sluice.store.SpendSink;
import dev.sluice.store.StoreFailures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A sink that keeps the call ids it was posted, in order, and each post's size. It can be
 * taken down (posts fail as an unreachable database's do) and can refuse rows the way a
 * database refuses a value it cannot store: the whole post fails while it holds one.
 */
final class RecordingSink implements SpendSink {
    private final List<String> posted = new ArrayList<>();
    private final List<Integer> batches = new ArrayList<>();
    private final Predicate<SpendRow> refuses;
    final AtomicInteger failedPosts = new AtomicInteger();
    volatile boolean down;

    RecordingSink() {
        this(row -> false);
    }

    RecordingSink(Predicate<SpendRow> refuses) {
        this.refuses = refuses;
    }

    @Override
    public synchronized int post(List<SpendRow> rows) {
        if (down) {
            failedPosts.incrementAndGet();
            throw StoreFailures.unavailable("post spend: connection refused");
        }
        for (SpendRow row : rows) {
            if (refuses.test(row)) {
                throw StoreFailures.refused("post spend: value too long for call " + row.callId());
            }
        }
        rows.forEach(row -> posted.add(row.callId()));
        batches.add(rows.size());
        return rows.size();
    }

    synchronized List<String> posted() {
        return List.copyOf(posted);
    }

    synchronized List<Integer> batches() {
        return List.copyOf(batches);
    }
}
