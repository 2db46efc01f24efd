package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.WAIT;
import static dev.sluice.store.journal.JournalFixtures.crashCopy;
import static dev.sluice.store.journal.JournalFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Database;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendSink;
import dev.sluice.testing.StoreTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipper through the real ledger: a crash after rows were posted and acknowledged,
 * but before the acknowledgement reached the disk, makes the next process post them again,
 * and the ledger, idempotent by call id, logs each call once.
 */
class JournalShipperLedgerTest {
    @TempDir
    Path folder;
    @TempDir
    Path elsewhere;

    @StoreTest
    void rowsShippedAgainAfterACrashAreLoggedOnce(Database database) throws Exception {
        SpendLedger ledger = new SpendLedger(database);
        AtomicInteger newRows = new AtomicInteger();
        SpendSink counted = rows -> {
            int added = ledger.post(rows);
            newRows.addAndGet(added);
            return added;
        };
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder));
                JournalShipper shipper = JournalShipper.start(journal, counted, JournalShipperTest.QUICK)) {
            for (int i = 0; i < 300; i++) {
                assertThat(journal.append(row("call-" + i)).accepted()).isTrue();
            }
            assertThat(shipper.flush(WAIT)).isTrue();
            Path crashed = crashCopy(folder, elsewhere.resolve("crashed"));
            // The crash took the checkpoint's writes with it: as far as the disk says, nothing was acknowledged.
            Files.delete(crashed.resolve(AckCheckpoint.FILE_NAME));

            try (SpendJournal next = SpendJournal.open(JournalOptions.in(crashed))) {
                assertThat(next.status().pendingRecords()).as("acknowledged, but not as far as the disk knows")
                        .isEqualTo(300);
                try (JournalShipper again = JournalShipper.start(next, counted, JournalShipperTest.QUICK)) {
                    assertThat(again.flush(WAIT)).isTrue();
                    assertThat(again.status().shippedRows()).isEqualTo(300);
                }
            }
        }

        assertThat(newRows.get()).isEqualTo(300);
        assertThat(new SpendRepository(database).count()).isEqualTo(300);
    }
}
