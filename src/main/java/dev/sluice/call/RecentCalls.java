package dev.sluice.call;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * This replica's last model calls, for {@code GET /calls/recent}: a ring of a fixed number of
 * {@link RecentCall}s that every event loop writes without a lock. Writing one is a counter
 * increment and a slot swap; reading copies the slots and sorts them, newest first.
 */
public final class RecentCalls {
    /** How many calls a replica keeps. */
    public static final int DEFAULT_SIZE = 500;

    private final AtomicReferenceArray<RecentCall> slots;
    private final AtomicLong written = new AtomicLong();

    public RecentCalls(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size: " + size + " (expected: >= 1)");
        }
        this.slots = new AtomicReferenceArray<>(size);
    }

    /** Keeps {@code call}, in place of the oldest once the ring is full. */
    void add(RecentCall call) {
        long number = written.getAndIncrement();
        call.sequence = number;
        int slot = (int) (number % slots.length());
        while (true) {
            RecentCall held = slots.get(slot);
            // A call written later into the same slot (a full turn of the ring meanwhile) is kept.
            if (held != null && held.sequence > number) {
                return;
            }
            if (slots.compareAndSet(slot, held, call)) {
                return;
            }
        }
    }

    /** The calls held now, newest first. */
    public List<RecentCall> newestFirst() {
        List<RecentCall> held = new ArrayList<>(slots.length());
        for (int i = 0; i < slots.length(); i++) {
            RecentCall call = slots.get(i);
            if (call != null) {
                held.add(call);
            }
        }
        held.sort(Comparator.comparingLong((RecentCall call) -> call.sequence).reversed());
        return held;
    }

    /** How many calls the ring holds at most. */
    public int size() {
        return slots.length();
    }
}
