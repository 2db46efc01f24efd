package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Concurrently;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The ring of recent calls: bounded, newest first, written from many threads at once without losing its bound. */
class RecentCallsTest {

    private static RecentCall call(String id) {
        return new RecentCall(id, 0, 0);
    }

    private static List<String> ids(RecentCalls ring) {
        return ring.newestFirst().stream().map(RecentCall::callId).toList();
    }

    @Test
    void keepsTheLastCallsNewestFirstAndForgetsTheOldest() {
        RecentCalls ring = new RecentCalls(3);
        assertThat(ids(ring)).isEmpty();
        ring.add(call("a"));
        ring.add(call("b"));
        assertThat(ids(ring)).containsExactly("b", "a");
        ring.add(call("c"));
        ring.add(call("d"));
        ring.add(call("e"));
        assertThat(ids(ring)).containsExactly("e", "d", "c");
        assertThat(ring.size()).isEqualTo(3);
    }

    @Test
    void staysBoundedUnderConcurrentWriters() throws Exception {
        RecentCalls ring = new RecentCalls(50);
        AtomicInteger next = new AtomicInteger();
        Concurrently.run(4, thread -> {
            for (int i = 0; i < 1000; i++) {
                ring.add(call("c" + next.getAndIncrement()));
            }
        });
        List<RecentCall> held = ring.newestFirst();
        assertThat(held).hasSize(50);
        assertThat(held).extracting(c -> c.sequence).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(held.getFirst().sequence).isEqualTo(3999);
    }

    @Test
    void aRingHoldsAtLeastOneCall() {
        assertThatThrownBy(() -> new RecentCalls(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
