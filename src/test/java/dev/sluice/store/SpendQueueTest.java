package dev.sluice.store;

import static dev.sluice.store.SpendBufferTest.callIds;
import static dev.sluice.store.SpendBufferTest.rows;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The queue between callers and the writer's thread: its bound, its batches, and what a flush waits for. */
class SpendQueueTest {
    static final long NO_WAIT = 0;

    @Test
    void aRowIsRefusedOnlyOnceTheQueueIsFullOrClosed() {
        SpendQueue queue = new SpendQueue(3, 2);
        List<SpendRow> rows = rows("r", 5);

        assertThat(queue.offer(rows.get(0))).isTrue();
        assertThat(queue.offer(rows.get(1))).isTrue();
        assertThat(queue.offer(rows.get(2))).isTrue();
        assertThat(queue.offer(rows.get(3))).isFalse();
        assertThat(queue.size()).isEqualTo(3);

        queue.take(NO_WAIT);
        assertThat(queue.offer(rows.get(3))).isTrue();
        queue.close();
        assertThat(queue.offer(rows.get(4))).isFalse();
    }

    @Test
    void batchesAreTakenOldestFirstAndNoLargerThanABatch() {
        SpendQueue queue = new SpendQueue(10, 2);
        rows("r", 5).forEach(queue::offer);

        assertThat(callIds(queue.take(NO_WAIT))).containsExactly("r-0", "r-1");
        assertThat(callIds(queue.take(NO_WAIT))).containsExactly("r-2", "r-3");
        assertThat(callIds(queue.take(NO_WAIT))).containsExactly("r-4");
        assertThat(queue.take(NO_WAIT)).isEmpty();
    }

    @Test
    void aFlushWaitsForTheRowsAcceptedBeforeItAndNoOthers() throws InterruptedException {
        SpendQueue queue = new SpendQueue(10, 5);
        rows("before", 3).forEach(queue::offer);
        queue.settled(2);

        assertThat(queue.awaitSettled(Duration.ofMillis(20))).isFalse();

        queue.settled(1);
        assertThat(queue.awaitSettled(Duration.ZERO)).isTrue();
    }

    @Test
    void aFlushHurriesTheWriterPastItsWaitForAFullBatch() throws InterruptedException {
        SpendQueue queue = new SpendQueue(10, 5);
        rows("r", 2).forEach(queue::offer);
        Thread writer = Thread.ofVirtual().start(() -> queue.settled(queue.take(Duration.ofMinutes(10).toNanos()).size()));

        assertThat(queue.awaitSettled(Duration.ofSeconds(10))).isTrue();
        writer.join();
    }
}
