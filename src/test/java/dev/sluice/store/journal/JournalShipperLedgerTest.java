package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.TIME;
import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.WAIT;
import static dev.sluice.store.journal.JournalFixtures.crashCopy;
import static dev.sluice.store.journal.JournalFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.Database;
import dev.sluice.store.DeadLetters;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.store.SpendSink;
import dev.sluice.store.StoreFailures;
import dev.sluice.testing.StoreTest;
import dev.sluice.wire.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipper through the real ledger: rows land once, in a few large transactions; a row
 * the database refuses alone is set aside while the rest land; and a crash after rows were
 * posted and acknowledged, but before the acknowledgement reached the disk, makes the next
 * process post them again, and the ledger, idempotent by call id, logs each call once.
 */
class JournalShipperLedgerTest {
    @TempDir
    Path folder;
    @TempDir
    Path elsewhere;

    @StoreTest
    void everyRowLandsOnceInAFewLargeTransactions(Database database) {
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        List<Integer> batches = Collections.synchronizedList(new ArrayList<>());
        SpendSink counted = (rows, through) -> {
            batches.add(rows.size());
            return ledger.post(rows, through);
        };
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, counted, JournalShipperTest.QUICK, JOBS)) {
            for (int i = 0; i < 3000; i++) {
                assertThat(journal.append(row("call-" + i)).accepted()).isTrue();
            }
            assertThat(shipper.flush(WAIT)).isTrue();
            assertThat(shipper.status().deadLetters()).isZero();
        }

        assertThat(new SpendRepository(database).count()).isEqualTo(3000);
        assertThat(batches).allSatisfy(size -> assertThat(size).isBetween(1, 1000));
        assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(3000);
        assertThat(batches).as("posts of 3000 rows").hasSizeLessThanOrEqualTo(60);
    }

    @StoreTest
    void aRowTheDatabaseRefusesAloneIsSetAsideAndTheRestOfItsBatchLands(Database database) throws Exception {
        String tooLong = "group-" + "x".repeat(600);  // a rollup's name is VARCHAR(520)
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, new SpendLedger(database, Clock.systemUTC()),
                        JournalShipperTest.QUICK, JOBS)) {
            for (int i = 0; i < 5; i++) {
                journal.append(row("good-" + i));
            }
            journal.append(SpendRow.builder("call-long-group", tooLong, JournalFixtures.T0).build());
            for (int i = 5; i < 10; i++) {
                journal.append(row("good-" + i));
            }
            assertThat(shipper.flush(WAIT)).isTrue();
            ShipperStatus status = shipper.status();
            assertThat(status.deadLetters()).isEqualTo(1);
            assertThat(status.sinkReachable()).isTrue();
            assertThat(status.lastError()).startsWith("post spend: ");
        }

        assertThat(new SpendRepository(database).count()).isEqualTo(10);
        List<String> deadLetters = Files.readAllLines(folder.resolve(DeadLetters.FILE_NAME));
        assertThat(deadLetters).singleElement().satisfies(line -> {
            JsonNode deadLetter = Json.MAPPER.readTree(line);
            assertThat(deadLetter.get("call_id").textValue()).isEqualTo("call-long-group");
            assertThat(deadLetter.get("error").textValue()).startsWith("post spend: ");
        });
    }

    @StoreTest
    void rowsShippedAgainAfterACrashAreLoggedOnce(Database database) throws Exception {
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        AtomicInteger newRows = new AtomicInteger();
        SpendSink counted = (rows, through) -> {
            int added = ledger.post(rows, through);
            newRows.addAndGet(added);
            return added;
        };
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, counted, JournalShipperTest.QUICK, JOBS)) {
            for (int i = 0; i < 300; i++) {
                assertThat(journal.append(row("call-" + i)).accepted()).isTrue();
            }
            assertThat(shipper.flush(WAIT)).isTrue();
            Path crashed = crashCopy(folder, elsewhere.resolve("crashed"));
            // The crash took the checkpoint's writes with it: as far as the disk says, nothing was acknowledged.
            Files.delete(crashed.resolve(AckCheckpoint.FILE_NAME));

            try (SpendJournal next = SpendJournal.open(JournalOptions.in(crashed, TIME), JOBS)) {
                assertThat(next.status().pendingRecords()).as("acknowledged, but not as far as the disk knows")
                        .isEqualTo(300);
                try (JournalShipper again = JournalShipper.start(next, counted, JournalShipperTest.QUICK, JOBS)) {
                    assertThat(again.flush(WAIT)).isTrue();
                    assertThat(again.status().shippedRows()).isEqualTo(300);
                }
            }
        }

        assertThat(newRows.get()).isEqualTo(300);
        assertThat(new SpendRepository(database).count()).isEqualTo(300);
    }

    @StoreTest
    void aJournalOpenedWithoutCallsBetweenTwoRunsLosesNoRowOfTheNext(Database database) {
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, ledger, JournalShipperTest.QUICK, JOBS)) {
            JournalShipperTest.append(journal, JournalShipperTest.ids("first-", 0, 10));
            assertThat(shipper.flush(WAIT)).isTrue();
        }
        // A run that takes no call: its start deletes the segment the first run shipped whole.
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, ledger, JournalShipperTest.QUICK, JOBS)) {
            assertThat(shipper.flush(WAIT)).isTrue();
        }
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                JournalShipper shipper = JournalShipper.start(journal, ledger, JournalShipperTest.QUICK, JOBS)) {
            JournalShipperTest.append(journal, JournalShipperTest.ids("second-", 0, 5));
            assertThat(shipper.flush(WAIT)).isTrue();
        }

        assertThat(new SpendRepository(database).count()).isEqualTo(15);
    }

    @StoreTest
    void aSplitBatchWhosePostFailedAfterItsCommitCountsNoRowTwice(Database database) {
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        AtomicBoolean lost = new AtomicBoolean();
        SpendSink answerLost = (rows, through) -> {
            int added = ledger.post(rows, through);
            if (rows.size() == 2 && rows.getFirst().callId().equals("call-4") && lost.compareAndSet(false, true)) {
                throw StoreFailures.unavailable("post spend: connection reset after the commit");
            }
            return added;
        };
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS)) {
            JournalShipperTest.append(journal, JournalShipperTest.ids("call-", 0, 7));
            journal.append(SpendRow.builder("call-long-group", "g" + "x".repeat(600), JournalFixtures.T0).build());
            JournalShipperTest.append(journal, JournalShipperTest.ids("call-", 8, 16));
            // The shipper reads only what the group commit forced: force all sixteen rows now, so its
            // first batch holds them all and splits as this test expects, however late the group
            // commit's own timer runs on a loaded machine.
            assertThat(journal.sync()).isTrue();
            try (JournalShipper shipper = JournalShipper.start(journal, answerLost, JournalShipperTest.QUICK, JOBS)) {
                assertThat(shipper.flush(WAIT)).isTrue();
                assertThat(shipper.status().deadLetters()).isEqualTo(1);
            }
        }

        assertThat(lost).as("the post of call-4 and call-5 failed after its commit").isTrue();
        assertThat(new SpendRepository(database).count()).isEqualTo(15);
    }
}
