package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.TIME;
import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.LegacySpendFixtures;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.StoreTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A spend buffer an earlier version left, in the segment files that version wrote, imported
 * into the spend journal at open: its rows land in the store exactly once, through a crash
 * between import and deletion too; torn lines are skipped; and a journal too full to take
 * them all leaves the folder as it was.
 */
class LegacySpendImportTest {
    private static final String RAW_KEY = "sk-a";

    @TempDir
    Path temp;
    private Path journalFolder;
    private Path legacyFolder;
    private final Logger logger = (Logger) LoggerFactory.getLogger(LegacySpendImport.class);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void setUp() {
        journalFolder = temp.resolve("spend-journal");
        legacyFolder = LegacySpendFixtures.copyInto(temp.resolve("spend-buffer"));
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void tearDown() {
        logger.detachAppender(log);
    }

    @StoreTest
    void rowsALegacyBufferHoldsLandInTheStoreExactlyOnceAfterStart(Database database) {
        insertKey(database);
        List<SpendRow> rows = LegacySpendFixtures.rows();
        // The earlier version had posted the first ten when it stopped, before its buffer forgot them.
        new SpendLedger(database, Clock.systemUTC()).post(rows.subList(0, 10));

        try (JournaledSpend spend = JournaledSpend.open(journalFolder, legacyFolder, TIME, JOBS)) {
            assertThat(legacyFolder).doesNotExist();
            assertThat(spend.status().rowsPending()).isEqualTo(52);
            assertThat(infoLines()).containsExactly("spend.legacy_buffer_imported folder=" + legacyFolder
                    + " rows=52 skipped_lines=0 into " + journalFolder);

            spend.start(new SpendLedger(database, Clock.systemUTC()), JournalShipperTest.QUICK);
            Eventually.until("the imported rows are shipped", WAIT, () -> spend.status().rowsPending() == 0);
        }

        assertLandedOnce(database, rows);
    }

    @StoreTest
    void aCrashBetweenImportAndDeletionTakesNoRowTwiceAndTheStoreLogsEachCallOnce(Database database)
            throws IOException {
        insertKey(database);
        List<SpendRow> rows = LegacySpendFixtures.rows();
        Map<String, String> asLeft = contents(legacyFolder);
        JournaledSpend.open(journalFolder, legacyFolder, TIME, JOBS).close();
        // The crash came before the deletion reached the disk: the files are back as they were.
        LegacySpendFixtures.copyInto(legacyFolder);
        assertThat(contents(legacyFolder)).containsExactlyEntriesOf(asLeft);

        try (JournaledSpend spend = JournaledSpend.open(journalFolder, legacyFolder, TIME, JOBS)) {
            assertThat(spend.status().rowsPending()).as("the rows the journal holds are passed over").isEqualTo(52);
            spend.start(new SpendLedger(database, Clock.systemUTC()), JournalShipperTest.QUICK);
            Eventually.until("both imports are shipped", WAIT, () -> spend.status().rowsPending() == 0);
        }

        assertLandedOnce(database, rows);
    }

    @Test
    void tornAndUnreadableLinesAreSkippedAndTheRestImported() throws IOException {
        Files.write(legacyFolder.resolve(LegacySpendFixtures.SEGMENTS.getFirst()),
                "{\"call_id\":\"cost-not-a-number\",\"cost\":\"x\"}\n".getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND);
        Files.write(legacyFolder.resolve(LegacySpendFixtures.SEGMENTS.getLast()),
                "{\"call_id\":\"torn".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);

        try (JournaledSpend spend = JournaledSpend.open(journalFolder, legacyFolder, TIME, JOBS)) {
            assertThat(spend.status().rowsPending()).isEqualTo(52);
        }

        assertThat(legacyFolder).doesNotExist();
        assertThat(infoLines()).singleElement().asString().contains(" rows=52 skipped_lines=2 ");
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(journalFolder, TIME), JOBS)) {
            assertThat(JournalFixtures.drain(journal)).containsExactlyElementsOf(LegacySpendFixtures.rows());
        }
    }

    @StoreTest
    void aJournalTooFullForTheRowsLeavesTheLegacyFolderAsItWasUntilAStartWithRoom(Database database)
            throws IOException {
        insertKey(database);
        Map<String, String> asLeft = contents(legacyFolder);
        long taken;
        // Two 1 KiB segments: room for about sixteen of the 52 rows, which ship before the next start.
        try (JournaledSpend spend = JournaledSpend.open(JournalFixtures.small(journalFolder, 2), legacyFolder, JOBS)) {
            taken = spend.status().rowsPending();
            spend.start(new SpendLedger(database, Clock.systemUTC()), JournalShipperTest.QUICK);
            Eventually.until("the rows taken are shipped", WAIT, () -> spend.status().rowsPending() == 0);
        }

        assertThat(taken).isBetween(1L, 51L);
        assertThat(new SpendRepository(database).count()).isEqualTo(taken);
        assertThat(contents(legacyFolder)).containsExactlyEntriesOf(asLeft);
        assertThat(log.list).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.ERROR);
            assertThat(event.getFormattedMessage()).startsWith("spend.legacy_buffer_not_imported folder=" + legacyFolder
                    + " rows_taken=" + taken + ": the spend journal " + journalFolder + " refused a row");
        });

        try (JournaledSpend spend = JournaledSpend.open(journalFolder, legacyFolder, TIME, JOBS)) {
            assertThat(legacyFolder).doesNotExist();
            assertThat(spend.status().rowsPending()).as("the calls imported before are passed over")
                    .isEqualTo(52 - taken);
            spend.start(new SpendLedger(database, Clock.systemUTC()), JournalShipperTest.QUICK);
            Eventually.until("the rows are shipped", WAIT, () -> spend.status().rowsPending() == 0);
        }
        assertLandedOnce(database, LegacySpendFixtures.rows());
        try (JournaledSpend spend = JournaledSpend.open(journalFolder, legacyFolder, TIME, JOBS)) {
            assertThat(journalFolder.resolve(ImportedLegacyCalls.FILE_NAME)).as("with the legacy folder gone")
                    .doesNotExist();
        }
    }

    private static void insertKey(Database database) {
        new KeyRepository(database).insert(
                VirtualKey.builder(VirtualKey.hash(RAW_KEY), VirtualKey.maskedName(RAW_KEY), Instant.EPOCH).build());
    }

    /** Every row is in the spend log, as it was, and the key's spend is their costs counted once. */
    private static void assertLandedOnce(Database database, List<SpendRow> rows) {
        SpendRepository spendLog = new SpendRepository(database);
        assertThat(spendLog.count()).isEqualTo(rows.size());
        for (SpendRow row : rows) {
            assertThat(spendLog.find(row.callId())).contains(row);
        }
        String keyHash = VirtualKey.hash(RAW_KEY);
        List<SpendRow> ofKey = rows.stream().filter(row -> row.accounts().keyHash().equals(Optional.of(keyHash))).toList();
        assertThat(ofKey).hasSize(rows.size() - 1);
        assertThat(new KeyRepository(database).findByHash(keyHash).orElseThrow().budget().spend())
                .isEqualByComparingTo(LegacySpendFixtures.sum(ofKey));
    }

    private List<String> infoLines() {
        return log.list.stream().filter(event -> event.getLevel() == Level.INFO)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** Each file in the folder by name, with its bytes. */
    private static Map<String, String> contents(Path folder) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        try (Stream<Path> list = Files.list(folder)) {
            for (Path file : list.sorted().toList()) {
                files.put(file.getFileName().toString(), new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
            }
        }
        return files;
    }
}
