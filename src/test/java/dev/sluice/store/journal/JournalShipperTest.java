package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.TIME;
import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.WAIT;
import static dev.sluice.store.journal.JournalFixtures.crashCopy;
import static dev.sluice.store.journal.JournalFixtures.row;
import static dev.sluice.store.journal.JournalFixtures.segmentFiles;
import static dev.sluice.store.journal.JournalFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.JournalMark;
import dev.sluice.store.SpendRow;
import dev.sluice.store.SpendSink;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeTime;
import dev.sluice.testing.TestSupervision;
import dev.sluice.time.JobRestarts;
import dev.sluice.time.RestartBackoff;
import dev.sluice.time.Scheduler;
import dev.sluice.wire.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipper against a recording sink: every row reaches it once, in order and in large
 * batches, across a crash and across an outage; a row the sink refuses alone is set aside
 * and the rest land; close ships what is left, or leaves it for the next start.
 */
class JournalShipperTest {
    /** Retries every 1 to 20 ms and gathers for 5 ms, so outages end quickly in tests. */
    static final ShipperOptions QUICK = ShipperOptions.DEFAULTS
            .withGatherWait(Duration.ofMillis(5))
            .withRetry(Duration.ofMillis(1), Duration.ofMillis(20));

    @TempDir
    Path folder;
    @TempDir
    Path elsewhere;

    static List<String> ids(String prefix, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> prefix + i).toList();
    }

    static void append(SpendJournal journal, List<String> ids) {
        for (String id : ids) {
            assertThat(journal.append(row(id)).accepted()).isTrue();
        }
    }

    @Test
    void everyRowIsShippedOnceInOrderInBatchesOfAtMostAThousand() {
        RecordingSink sink = new RecordingSink();
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            append(journal, ids("call-", 0, 2500));
            journal.sync();
            try (JournalShipper shipper = JournalShipper.start(journal, sink, ShipperOptions.DEFAULTS, JOBS)) {
                assertThat(shipper.flush(WAIT)).isTrue();

                assertThat(sink.posted()).containsExactlyElementsOf(ids("call-", 0, 2500));
                assertThat(sink.batches()).containsExactly(1000, 1000, 500);
                assertThat(journal.status().pendingRecords()).isZero();
                assertThat(shipper.status()).isEqualTo(new ShipperStatus(true, "", 2500, 3, 0));
            }
        }
    }

    @Test
    void rowsAppendedWhileShippingAllArriveAndSealedSegmentsGo() {
        RecordingSink sink = new RecordingSink();
        try (SpendJournal journal = SpendJournal.open(small(folder, 1000), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, sink, QUICK, JOBS)) {
            append(journal, ids("call-", 0, 400));
            assertThat(shipper.flush(WAIT)).isTrue();

            assertThat(sink.posted()).containsExactlyElementsOf(ids("call-", 0, 400));
            assertThat(segmentFiles(folder)).as("only the active segment is left").hasSizeLessThanOrEqualTo(1);
        }
    }

    @Test
    void afterACrashEveryRowAppendedAndNotShippedIsShippedOnce() {
        RecordingSink sink = new RecordingSink();
        try (SpendJournal journal = SpendJournal.open(small(folder, 1000), JOBS)) {
            append(journal, ids("call-", 0, 300));
            Path crashed = crashCopy(folder, elsewhere.resolve("crashed"));

            try (SpendJournal next = SpendJournal.open(small(crashed, 1000), JOBS);
                    JournalShipper shipper = JournalShipper.start(next, sink, QUICK, JOBS)) {
                append(next, ids("new-", 0, 10));
                assertThat(shipper.flush(WAIT)).isTrue();
            }
        }

        List<String> expected = new java.util.ArrayList<>(ids("call-", 0, 300));
        expected.addAll(ids("new-", 0, 10));
        assertThat(sink.posted()).containsExactlyElementsOf(expected);
    }

    @Test
    void anOutageHoldsRowsInTheJournalAndTheyAllLandInOrderOnceWhenTheSinkAnswers() {
        RecordingSink sink = new RecordingSink();
        sink.down = true;
        try (SpendJournal journal = SpendJournal.open(small(folder, 1000), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, sink, QUICK, JOBS)) {
            append(journal, ids("call-", 0, 500));
            Eventually.until("three posts failed", WAIT, () -> sink.failedPosts.get() >= 3);
            append(journal, ids("call-", 500, 1000));
            assertThat(shipper.flush(Duration.ofMillis(50))).isFalse();
            assertThat(shipper.status().sinkReachable()).isFalse();
            assertThat(shipper.status().lastError()).contains("connection refused");
            assertThat(journal.status().pendingRecords()).isEqualTo(1000);

            sink.down = false;
            assertThat(shipper.flush(WAIT)).isTrue();

            assertThat(sink.posted()).containsExactlyElementsOf(ids("call-", 0, 1000));
            assertThat(shipper.status().sinkReachable()).isTrue();
            assertThat(journal.status().pendingRecords()).isZero();
        }
    }

    @Test
    void aRowTheSinkRefusesAloneGoesToTheDeadLettersAndTheRestOfItsBatchLands() throws Exception {
        RecordingSink sink = new RecordingSink(row -> row.callId().startsWith("bad"));
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            append(journal, ids("good-", 0, 5));
            append(journal, List.of("bad-1"));
            append(journal, ids("good-", 5, 10));
            try (JournalShipper shipper = JournalShipper.start(journal, sink, QUICK, JOBS)) {
                assertThat(shipper.flush(WAIT)).isTrue();
                assertThat(shipper.status().deadLetters()).isEqualTo(1);
            }
        }

        assertThat(sink.posted()).containsExactlyElementsOf(ids("good-", 0, 10));
        List<String> lines = Files.readAllLines(folder.resolve(dev.sluice.store.DeadLetters.FILE_NAME));
        assertThat(lines).hasSize(1);
        JsonNode deadLetter = Json.MAPPER.readTree(lines.getFirst());
        assertThat(deadLetter.get("call_id").textValue()).isEqualTo("bad-1");
        assertThat(deadLetter.get("cost").textValue()).isEqualTo("0.000123000000");
        assertThat(deadLetter.get("error").textValue()).contains("value too long for call bad-1");
    }

    @Test
    void closeShipsWhatIsLeft() {
        RecordingSink sink = new RecordingSink();
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            JournalShipper shipper = JournalShipper.start(journal, sink, ShipperOptions.DEFAULTS
                    .withGatherWait(Duration.ofSeconds(30)), JOBS);
            append(journal, ids("call-", 0, 100));
            shipper.close();
            shipper.close();

            assertThat(sink.posted()).containsExactlyElementsOf(ids("call-", 0, 100));
            assertThat(journal.status().pendingRecords()).isZero();
        }
    }

    @Test
    void closeDuringAnOutageLeavesTheRowsForTheNextStart() {
        RecordingSink sink = new RecordingSink();
        sink.down = true;
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            JournalShipper shipper = JournalShipper.start(journal, sink,
                    QUICK.withCloseTimeout(Duration.ofMillis(100)), JOBS);
            append(journal, ids("call-", 0, 100));
            shipper.close();
            assertThat(journal.status().pendingRecords()).isEqualTo(100);
        }

        sink.down = false;
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, sink, QUICK, JOBS)) {
            assertThat(shipper.flush(WAIT)).isTrue();
        }
        assertThat(sink.posted()).containsExactlyElementsOf(ids("call-", 0, 100));
    }

    @Test
    void shippingOutlivesAPostThatRanOutOfMemoryAndEveryRowLandsOnce() {
        RecordingSink sink = new RecordingSink();
        AtomicBoolean failed = new AtomicBoolean();
        SpendSink failingOnce = new SpendSink() {
            @Override
            public int post(List<SpendRow> rows, JournalMark through) {
                if (failed.compareAndSet(false, true)) {
                    throw TestSupervision.outOfMemory();
                }
                return sink.post(rows, through);
            }

            @Override
            public Optional<JournalMark> shippedThrough(String journal) {
                return sink.shippedThrough(journal);
            }
        };
        TestSupervision time = new TestSupervision();
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            append(journal, ids("call-", 0, 10));
            try (JournalShipper shipper = JournalShipper.start(journal, failingOnce, QUICK, time.scheduler())) {
                assertThat(shipper.flush(WAIT)).isTrue();
                append(journal, ids("call-", 10, 20));
                assertThat(shipper.flush(WAIT)).isTrue();

                assertThat(failed).isTrue();
                assertThat(sink.posted()).containsExactlyElementsOf(ids("call-", 0, 20));
                assertThat(time.restarts().of("spend-journal-shipper")).isEqualTo(1);
            }
        }
    }

    @Test
    void onInjectedTimeTheShipperReadsWhenItsWaitIsOverOutlivesAFailedPostAndCloseEndsItsThread() throws Exception {
        FakeTime time = new FakeTime();
        JobRestarts restarts = new JobRestarts();
        Scheduler jobs = time.scheduler(restarts);
        Duration gather = Duration.ofSeconds(1);
        RecordingSink sink = new RecordingSink();
        AtomicInteger posts = new AtomicInteger();
        SpendSink failingOnce = new SpendSink() {
            @Override
            public int post(List<SpendRow> rows, JournalMark through) {
                if (posts.incrementAndGet() == 1) {
                    throw TestSupervision.outOfMemory();
                }
                return sink.post(rows, through);
            }

            @Override
            public Optional<JournalMark> shippedThrough(String journal) {
                return sink.shippedThrough(journal);
            }
        };
        // The commits wait a second too: with the shipper, two threads wait on the fake time.
        JournalOptions options = JournalOptions.in(folder, time.source()).withCommitInterval(Duration.ofSeconds(1));
        try (SpendJournal journal = SpendJournal.open(options, jobs)) {
            JournalShipper shipper = JournalShipper.start(journal, failingOnce, ShipperOptions.DEFAULTS.withGatherWait(gather), jobs);
            time.awaitWaiting(2);
            append(journal, ids("call-", 0, 3));
            journal.sync();

            time.advance(gather.minusNanos(1));
            time.awaitWaiting(2);
            assertThat(posts).as("a nanosecond before the shipper reads again").hasValue(0);

            time.advance(Duration.ofNanos(1));
            time.awaitWaiting(2); // the shipper's restart wait, after the post that failed
            assertThat(posts).hasValue(1);
            assertThat(restarts.of("spend-journal-shipper")).isEqualTo(1);
            assertThat(sink.posted()).isEmpty();

            time.advance(RestartBackoff.DEFAULT.first());
            time.awaitWaiting(2); // shipped, the shipper waits for more rows
            assertThat(sink.posted()).containsExactlyElementsOf(ids("call-", 0, 3));

            shipper.close();
            assertThat(shipper.thread().isAlive()).as("the shipper's thread, after close").isFalse();
        }
    }
}
