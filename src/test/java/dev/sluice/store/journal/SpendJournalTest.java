package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.TIME;
import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.T0;
import static dev.sluice.store.journal.JournalFixtures.WAIT;
import static dev.sluice.store.journal.JournalFixtures.crashCopy;
import static dev.sluice.store.journal.JournalFixtures.drain;
import static dev.sluice.store.journal.JournalFixtures.read;
import static dev.sluice.store.journal.JournalFixtures.row;
import static dev.sluice.store.journal.JournalFixtures.segmentFiles;
import static dev.sluice.store.journal.JournalFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.SpendRow;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.FakeTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal on a real disk: rows come back in order and whole after a close or a crash,
 * damaged records are skipped without hiding the rest, segments roll and go only once
 * acknowledged, and the bound refuses rows rather than drop them.
 */
class SpendJournalTest {
    @TempDir
    Path folder;
    @TempDir
    Path elsewhere;

    static List<SpendRow> rows(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> row(prefix + i)).toList();
    }

    static void appendAll(SpendJournal journal, List<SpendRow> rows) {
        for (SpendRow row : rows) {
            assertThat(journal.append(row).outcome()).isEqualTo(AppendResult.Outcome.ACCEPTED);
        }
    }

    @Test
    void rowsAppendedComeBackInOrderAndWholeAfterTheJournalIsOpenedAgain() {
        SpendRow bare = SpendRow.builder("bare", "g", T0).build();
        SpendRow full = SpendRow.builder("full-ü", "gpt-4o", T0.plusNanos(123_456_000))
                .keyHash("k").teamId("team").userId("user").deploymentId("dep-1")
                .promptTokens(1).completionTokens(2).totalTokens(4)
                .cost(new java.math.BigDecimal("12345.678901234567")).status(429).durationMs(99).build();
        SpendRow cached = SpendRow.builder("cached", "gpt-4o", T0).cacheHit(true).cacheKey("ns:" + "ab12".repeat(16)).build();
        List<SpendRow> written = new ArrayList<>(List.of(bare, full, cached));
        written.addAll(rows("call-", 200));
        try (SpendJournal journal = SpendJournal.open(small(folder, 100), JOBS)) {
            appendAll(journal, written);
        }

        try (SpendJournal journal = SpendJournal.open(small(folder, 100), JOBS)) {
            assertThat(journal.status().pendingRecords()).isEqualTo(203);
            assertThat(drain(journal)).containsExactlyElementsOf(written);
            assertThat(journal.status().pendingRecords()).isZero();
            appendAll(journal, rows("after-", 3));
            assertThat(drain(journal)).containsExactlyElementsOf(rows("after-", 3));
        }
    }

    @Test
    void aCrashLeavesEveryAcceptedRowToTheNextProcess() {
        List<SpendRow> written = rows("call-", 50);
        try (SpendJournal journal = SpendJournal.open(small(folder, 100), JOBS)) {
            appendAll(journal, written);
            Path crashed = crashCopy(folder, elsewhere.resolve("crashed"));

            try (SpendJournal next = SpendJournal.open(small(crashed, 100), JOBS)) {
                assertThat(drain(next)).containsExactlyElementsOf(written);
                appendAll(next, rows("new-", 1));
                assertThat(segmentFiles(crashed)).last().isNotIn(segmentFiles(folder).stream()
                        .map(file -> crashed.resolve(file.getFileName())).toList());
            }
        }
    }

    @Test
    void afterACrashOnlyTheRecordsPastTheLastAcknowledgementArePendingAndAcknowledgedSegmentsGo() {
        List<SpendRow> written = rows("call-", 30);
        try (SpendJournal journal = SpendJournal.open(small(folder, 100), JOBS)) {
            appendAll(journal, written);
            JournalBatch batch = read(journal, 20);
            journal.acknowledge(batch);
            Path crashed = crashCopy(folder, elsewhere.resolve("crashed"));

            try (SpendJournal next = SpendJournal.open(small(crashed, 100), JOBS)) {
                assertThat(next.status().pendingRecords()).isEqualTo(10);
                assertThat(drain(next)).containsExactlyElementsOf(written.subList(20, 30));
            }
        }
    }

    @Test
    void aDamagedCheckpointMakesEveryRecordLeftPendingAgain() throws Exception {
        List<SpendRow> written = rows("call-", 30);
        try (SpendJournal journal = SpendJournal.open(small(folder, 100), JOBS)) {
            appendAll(journal, written);
            journal.acknowledge(read(journal, 5));
        }
        Path checkpoint = folder.resolve(AckCheckpoint.FILE_NAME);
        byte[] bytes = java.nio.file.Files.readAllBytes(checkpoint);
        bytes[9] ^= 1;
        java.nio.file.Files.write(checkpoint, bytes);

        try (SpendJournal journal = SpendJournal.open(small(folder, 100), JOBS)) {
            assertThat(drain(journal)).as("all of the first segment, acknowledged or not, and the rest")
                    .containsExactlyElementsOf(written);
        }
    }

    @Test
    void aTornLastRecordIsSkippedAndCountedAndTheRestReplayed() throws Exception {
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            appendAll(journal, rows("call-", 10));
        }
        Path segment = segmentFiles(folder).getLast();
        long size = java.nio.file.Files.size(segment);
        try (var channel = java.nio.channels.FileChannel.open(segment, java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(size - 5);
        }

        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            assertThat(journal.status().skippedRecords()).isEqualTo(1);
            assertThat(journal.status().pendingRecords()).isEqualTo(9);
            assertThat(drain(journal)).containsExactlyElementsOf(rows("call-", 9));
            assertThat(segmentFiles(folder)).as("the damaged segment, all read and acknowledged, is gone").isEmpty();
        }
    }

    @Test
    void aRecordFailingItsChecksumIsSkippedAndTheRecordsAfterItAreKept() throws Exception {
        List<Long> ends = new ArrayList<>();
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            for (SpendRow row : rows("call-", 10)) {
                ends.add(journal.append(row).position());
            }
        }
        Path segment = segmentFiles(folder).getLast();
        byte[] bytes = java.nio.file.Files.readAllBytes(segment);
        int inFifth = (int) (ends.get(3) + 30);  // a byte in the body of call-4
        bytes[inFifth] ^= 0x5a;
        java.nio.file.Files.write(segment, bytes);

        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            assertThat(journal.status().skippedRecords()).isEqualTo(1);
            List<SpendRow> expected = new ArrayList<>(rows("call-", 10));
            expected.remove(4);
            assertThat(drain(journal)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void segmentsRollAtTheirSizeAndGoOnlyOnceEveryRecordInThemIsAcknowledged() {
        try (SpendJournal journal = SpendJournal.open(small(folder, 100), JOBS)) {
            appendAll(journal, rows("call-", 30));
            List<Path> files = segmentFiles(folder);
            assertThat(files).hasSizeGreaterThanOrEqualTo(3);
            assertThat(files).isSorted();
            Path first = files.getFirst();

            JournalBatch one = read(journal, 1);
            journal.acknowledge(one);
            assertThat(segmentFiles(folder)).as("one of its records is acknowledged").contains(first);

            JournalBatch rest = read(journal, 100);
            assertThat(segmentFiles(folder)).as("read, not yet acknowledged").contains(first);
            journal.acknowledge(rest);
            assertThat(segmentFiles(folder)).as("only the active segment stays").hasSize(1).doesNotContain(first);
            assertThat(journal.status().pendingRecords()).isZero();
        }
    }

    @Test
    void batchesAreAcknowledgedInOrderOnly() {
        try (SpendJournal journal = SpendJournal.open(small(folder, 100), JOBS)) {
            appendAll(journal, rows("call-", 4));
            JournalBatch first = read(journal, 2);
            JournalBatch second = read(journal, 2);

            assertThatThrownBy(() -> journal.acknowledge(second))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is not the next to acknowledge");
            journal.acknowledge(first);
            journal.acknowledge(second);
        }
    }

    @Test
    void theBoundRefusesAppendsAndTakesThemAgainOnceTheRowsAreShipped() {
        try (SpendJournal journal = SpendJournal.open(small(folder, 4), JOBS)) {
            int accepted = 0;
            AppendResult result;
            while ((result = journal.append(row("call-" + accepted))).accepted()) {
                accepted++;
            }
            assertThat(result.outcome()).isEqualTo(AppendResult.Outcome.FULL);
            assertThat(result.position()).isEqualTo(-1);
            assertThat(journal.append(row("again")).outcome()).isEqualTo(AppendResult.Outcome.FULL);
            JournalStatus full = journal.status();
            assertThat(full.refusedAppends()).isEqualTo(2);
            assertThat(full.pendingRecords()).isEqualTo(accepted);
            assertThat(full.bytesOnDisk()).isLessThanOrEqualTo(4096).isGreaterThan(4096 - 200);

            assertThat(drain(journal)).hasSize(accepted);

            assertThat(journal.status().bytesOnDisk()).isLessThan(1024);
            assertThat(journal.append(row("after")).accepted()).isTrue();
        }
    }

    @Test
    void aClosedJournalRefusesAppends() {
        SpendJournal journal = SpendJournal.open(small(folder, 4), JOBS);
        journal.close();
        journal.close();

        assertThat(journal.append(row("late")).outcome()).isEqualTo(AppendResult.Outcome.CLOSED);
    }

    @Test
    void aSecondJournalCannotOpenTheSameFolder() {
        try (SpendJournal journal = SpendJournal.open(small(folder, 4), JOBS)) {
            assertThatThrownBy(() -> SpendJournal.open(small(folder, 4), JOBS))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("another journal has the folder open");
        }
    }

    @Test
    void rowsAppendedFromEightThreadsAtOnceAllLandWholeEachThreadsInItsOrder() throws Exception {
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME).withSegmentBytes(64 * 1024)
                .withMaxBytes(64L << 20), JOBS)) {
            Concurrently.run(8, Duration.ofSeconds(60), thread -> {
                for (int i = 0; i < 1000; i++) {
                    assertThat(journal.append(row("t" + thread + "-" + i)).accepted()).isTrue();
                }
            });
            List<SpendRow> read = drain(journal);

            assertThat(read).hasSize(8000);
            assertThat(read.stream().map(SpendRow::callId).distinct()).hasSize(8000);
            Map<String, Integer> lastByThread = new HashMap<>();
            for (SpendRow row : read) {
                String[] parts = row.callId().split("-");
                int index = Integer.parseInt(parts[1]);
                Integer before = lastByThread.put(parts[0], index);
                assertThat(index).isEqualTo(before == null ? 0 : before + 1);
            }
            assertThat(journal.status().skippedRecords()).isZero();
        }
    }

    @Test
    void theOldestPendingAgeIsTheWaitOfTheOldestRecordNotYetAcknowledged() {
        FakeTime time = new FakeTime();
        try (SpendJournal journal = SpendJournal.open(small(folder, 100).withTime(time.source()), JOBS)) {
            assertThat(journal.status().oldestPendingAge()).isZero();
            journal.append(row("first"));
            time.advance(Duration.ofSeconds(3));
            journal.append(row("second"));
            time.advance(Duration.ofSeconds(2));

            assertThat(journal.status().oldestPendingAge()).isEqualTo(Duration.ofSeconds(5));
            journal.acknowledge(read(journal, 1));
            assertThat(journal.status().oldestPendingAge()).isEqualTo(Duration.ofSeconds(2));
            journal.acknowledge(read(journal, 1));
            assertThat(journal.status().oldestPendingAge()).isZero();
        }
    }

    @Test
    void badOptionsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> JournalOptions.in(folder, TIME).withSegmentBytes(10))
                .hasMessageStartingWith("segmentBytes: 10 (expected:");
        assertThatThrownBy(() -> JournalOptions.in(folder, TIME).withMaxBytes(JournalOptions.DEFAULT_SEGMENT_BYTES))
                .hasMessageStartingWith("maxBytes: 8388608 (expected: >= 2 * segmentBytes");
        assertThatThrownBy(() -> JournalOptions.in(folder, TIME).withCommitInterval(Duration.ZERO))
                .hasMessageStartingWith("commitInterval: PT0S (expected: > 0");
        assertThat(JournalOptions.in(folder, TIME).commitInterval()).isLessThanOrEqualTo(Duration.ofMillis(10));
    }

    @Test
    void waitingForDurabilityReturnsOnceTheGroupCommitForcedThePosition() throws Exception {
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            long position = journal.append(row("call-1")).position();
            assertThat(journal.awaitDurable(position, WAIT)).isTrue();
            assertThat(journal.status().durablePosition()).isGreaterThanOrEqualTo(position);
        }
    }
}
