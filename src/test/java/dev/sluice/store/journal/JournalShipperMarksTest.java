package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.TIME;
import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.WAIT;
import static dev.sluice.store.journal.JournalFixtures.crashCopy;
import static dev.sluice.store.journal.JournalShipperTest.QUICK;
import static dev.sluice.store.journal.JournalShipperTest.append;
import static dev.sluice.store.journal.JournalShipperTest.ids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.JournalMark;
import dev.sluice.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The marks a shipper posts with: each just past its post's last row, in the journal's own
 * id; a sink that keeps them is never posted a row before its mark again, at a start after a
 * crash or on a retry after part of a split batch landed.
 */
class JournalShipperMarksTest {
    @TempDir
    Path folder;
    @TempDir
    Path elsewhere;

    private static RecordingSink marking(RecordingSink sink) {
        sink.keepsMarks = true;
        return sink;
    }

    @Test
    void eachPostCarriesTheMarkPastItsLastRowInTheJournalsOwnId() {
        RecordingSink sink = new RecordingSink();
        String id;
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, sink, QUICK.withMaxBatchRows(4), JOBS)) {
            id = journal.id();
            append(journal, ids("call-", 0, 10));
            assertThat(shipper.flush(WAIT)).isTrue();
        }

        assertThat(id).matches("[0-9a-f-]{36}");
        assertThat(sink.marks()).allSatisfy(mark -> assertThat(mark.journal()).isEqualTo(id));
        assertThat(sink.marks()).isSortedAccordingTo((a, b) -> a.covers(b) ? (b.covers(a) ? 0 : 1) : -1);
        assertThat(sink.marks().getFirst().covers(sink.marks().getLast())).isFalse();
        try (SpendJournal fresh = SpendJournal.open(JournalOptions.in(elsewhere.resolve("fresh"), TIME), JOBS)) {
            assertThat(fresh.id()).as("a new folder's own").isNotEqualTo(id);
        }
    }

    @Test
    void theIdStaysWithTheFolderWhileItHoldsSegmentsAndIsMadeAnewOnceNothingIsLeft() {
        String id;
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            id = journal.id();
            append(journal, ids("call-", 0, 3));
        }
        try (SpendJournal reopened = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            assertThat(reopened.id()).as("with rows pending").isEqualTo(id);
            JournalFixtures.drain(reopened);
        }
        try (SpendJournal emptied = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            assertThat(emptied.id()).as("nothing left to ship again").isNotEqualTo(id);
        }
    }

    @Test
    void aStartAfterACrashPostsOnlyTheRowsPastTheMarkTheSinkKept() throws Exception {
        RecordingSink first = marking(new RecordingSink());
        Path crashed;
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            append(journal, ids("call-", 0, 10));
            try (JournalShipper shipper = JournalShipper.start(journal, first, QUICK.withMaxBatchRows(4), JOBS)) {
                assertThat(shipper.flush(WAIT)).isTrue();
                crashed = crashCopy(folder, elsewhere.resolve("crashed"));
            }
        }
        // The acknowledgements never reached the disk; the sink had logged the first two posts.
        Files.delete(crashed.resolve(AckCheckpoint.FILE_NAME));
        RecordingSink again = marking(new RecordingSink());
        again.kept = Optional.of(first.marks().get(1));

        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(crashed, TIME), JOBS)) {
            assertThat(journal.status().pendingRecords()).isEqualTo(10);
            try (JournalShipper shipper = JournalShipper.start(journal, again, QUICK, JOBS)) {
                assertThat(shipper.flush(WAIT)).isTrue();
            }
            assertThat(journal.status().pendingRecords()).isZero();
        }

        assertThat(again.posted()).containsExactlyElementsOf(ids("call-", 8, 10));
        assertThat(again.marks()).containsExactly(first.marks().getLast());
    }

    @Test
    void aSplitBatchPostedAgainAfterAnOutageStartsWhereItsLandedPartEnded() {
        RecordingSink sink = marking(new RecordingSink(row -> row.callId().startsWith("bad")));
        sink.downAfter = 1;
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            append(journal, ids("good-", 0, 3));
            append(journal, List.of("bad-1"));
            append(journal, ids("good-", 3, 4));
            try (JournalShipper shipper = JournalShipper.start(journal, sink, QUICK, JOBS)) {
                // good-0..3 and bad-1 fail whole; good-0, good-1 land; then the sink goes down.
                Eventually.until("the sink went down midway", WAIT, () -> !shipper.status().sinkReachable());
                sink.down = false;
                assertThat(shipper.flush(WAIT)).isTrue();
                assertThat(shipper.status().deadLetters()).isEqualTo(1);
            }
        }

        List<String> expected = new ArrayList<>(ids("good-", 0, 4));
        assertThat(sink.posted()).as("each row once").containsExactlyElementsOf(expected);
    }

    @Test
    void aMarkTheJournalHasNotWrittenYetStopsShippingAndKeepsTheRows() {
        RecordingSink sink = marking(new RecordingSink());
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            // Its own id, but a segment this process is the first to write: another journal's mark.
            sink.kept = Optional.of(new JournalMark(journal.id(), 0, 1L << 40));
            append(journal, ids("call-", 0, 5));
            try (JournalShipper shipper = JournalShipper.start(journal, sink,
                    QUICK.withCloseTimeout(java.time.Duration.ofMillis(100)), JOBS)) {
                Eventually.until("the shipper says why it stopped", WAIT,
                        () -> shipper.status().lastError().contains("past what the journal"));
            }
            assertThat(journal.status().pendingRecords()).isEqualTo(5);
        }

        assertThat(sink.posted()).isEmpty();
    }

    @Test
    void aRowSetAsideIsNotPostedAgainWhenAnOutageFollowsWithMarksOrWithout() {
        for (boolean keepsMarks : new boolean[] {true, false}) {
            Path journalFolder = elsewhere.resolve("marks-" + keepsMarks);
            RecordingSink[] holder = new RecordingSink[1];
            AtomicInteger refusals = new AtomicInteger();
            // Refused in the whole batch, in its first half, then alone: set aside; the sink goes
            // down with that last refusal, so the post of good-2 and good-3 after it fails.
            RecordingSink sink = new RecordingSink(row -> {
                if (!row.callId().startsWith("bad")) {
                    return false;
                }
                if (refusals.incrementAndGet() == 3) {
                    holder[0].down = true;
                }
                return true;
            });
            holder[0] = sink;
            sink.keepsMarks = keepsMarks;
            try (SpendJournal journal = SpendJournal.open(JournalOptions.in(journalFolder, TIME), JOBS)) {
                append(journal, List.of("good-0", "bad-1", "good-2", "good-3"));
                try (JournalShipper shipper = JournalShipper.start(journal, sink, QUICK, JOBS)) {
                    Eventually.until("the sink went down after the row was set aside", WAIT,
                            () -> !shipper.status().sinkReachable());
                    sink.down = false;
                    assertThat(shipper.flush(WAIT)).isTrue();
                    assertThat(shipper.status().deadLetters()).as("marks kept: %s", keepsMarks).isEqualTo(1);
                }
            }
            assertThat(sink.posted()).as("marks kept: %s", keepsMarks).containsExactly("good-0", "good-2", "good-3");
            assertThat(refusals).as("marks kept: %s", keepsMarks).hasValue(3);
        }
    }
}
