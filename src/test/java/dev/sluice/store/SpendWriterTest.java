package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.dollars;
import static dev.sluice.store.StoreFixtures.hash;
import static dev.sluice.store.StoreFixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.json.Json;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.Ports;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spend writer against real databases: batches land whole and once, a refused row is set
 * aside, and rows recorded while the database is gone (cut by a {@link TcpProxy}) are kept on
 * disk and land exactly once when it returns, even across a restart of the writer.
 */
class SpendWriterTest {
    static final Duration WAIT = Duration.ofSeconds(30);
    /** Retries every 50 to 200 ms and batches after 20 ms, so outages end quickly in tests. */
    static final SpendWriterOptions QUICK = SpendWriterOptions.DEFAULTS
            .withFlushInterval(Duration.ofMillis(20))
            .withRetry(Duration.ofMillis(50), Duration.ofMillis(200));
    /** An unreachable database is reported after half a second. */
    static final StoreOptions QUICK_STORE = TestDatabases.OPTIONS.withConnectionTimeout(Duration.ofMillis(500));

    @TempDir
    Path folder;

    @StoreTest
    void everyRecordedRowLandsOnceInAFewLargeTransactions(Database database) {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-a"));
        keys.insert(key("sk-b"));
        SpendLedger ledger = new SpendLedger(database);
        List<Integer> batches = Collections.synchronizedList(new ArrayList<>());
        SpendSink counted = rows -> {
            batches.add(rows.size());
            return ledger.post(rows);
        };

        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES);
                SpendWriter writer = SpendWriter.start(counted, buffer, SpendWriterOptions.DEFAULTS)) {
            for (int i = 0; i < 1000; i++) {
                assertThat(writer.record(row("call-" + i, i % 2 == 0 ? "sk-a" : "sk-b", "0.001"))).isTrue();
            }
            assertThat(writer.flush(WAIT)).isTrue();

            assertThat(writer.status()).isEqualTo(new SpendWriterStatus(0, 0, 0, true, "", 0));
        }

        assertThat(new SpendRepository(database).count()).isEqualTo(1000);
        assertThat(keys.findByHash(hash("sk-a")).orElseThrow().spend()).isEqualTo(dollars("0.5"));
        assertThat(keys.findByHash(hash("sk-b")).orElseThrow().spend()).isEqualTo(dollars("0.5"));
        assertThat(batches).allSatisfy(size -> assertThat(size).isBetween(1, 500));
        assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(1000);
        assertThat(batches).as("posts of 1000 rows").hasSizeLessThanOrEqualTo(20);
    }

    @StoreTest
    void rowsRecordedFromEightThreadsAtOnceAllLand(Database database) throws Exception {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-a"));

        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES);
                SpendWriter writer = SpendWriter.start(new SpendLedger(database), buffer, QUICK)) {
            StoreFixtures.concurrently(8, thread -> {
                for (int i = 0; i < 250; i++) {
                    assertThat(writer.record(row("t" + thread + "-" + i, "sk-a", "0.000001"))).isTrue();
                }
            });
            assertThat(writer.flush(WAIT)).isTrue();
        }

        assertThat(new SpendRepository(database).count()).isEqualTo(2000);
        assertThat(keys.findByHash(hash("sk-a")).orElseThrow().spend()).isEqualTo(dollars("0.002"));
    }

    @StoreTest
    void aRowTheDatabaseRefusesGoesToTheDeadLettersAndTheRestOfItsBatchLands(Database database) throws IOException {
        String tooLong = "call-" + "x".repeat(300);  // call_id is VARCHAR(255)
        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES);
                SpendWriter writer = SpendWriter.start(new SpendLedger(database), buffer, QUICK)) {
            for (int i = 0; i < 5; i++) {
                writer.record(row("good-" + i, "sk-a", "0.25"));
            }
            writer.record(row(tooLong, "sk-a", "7"));
            for (int i = 5; i < 10; i++) {
                writer.record(row("good-" + i, "sk-a", "0.25"));
            }
            assertThat(writer.flush(WAIT)).isTrue();

            SpendWriterStatus status = writer.status();
            assertThat(status.deadLetters()).isEqualTo(1);
            assertThat(status.sinkReachable()).isTrue();
            assertThat(status.lastError()).isNotEmpty();
        }

        assertThat(new SpendRepository(database).count()).isEqualTo(10);
        assertThat(StoreFixtures.loggedSpendOfKey(database, hash("sk-a"))).isEqualTo(dollars("2.5"));
        List<String> deadLetters = Files.readAllLines(folder.resolve(DeadLetters.FILE_NAME));
        assertThat(deadLetters).hasSize(1);
        JsonNode deadLetter = Json.MAPPER.readTree(deadLetters.getFirst());
        assertThat(deadLetter.get("call_id").textValue()).isEqualTo(tooLong);
        assertThat(deadLetter.get("cost").textValue()).isEqualTo("7.000000000000");
        assertThat(deadLetter.get("error").textValue()).startsWith("post spend: ");
    }

    @StoreTest
    void rowsAnEarlierRunLeftOnDiskArePostedOnceWhenTheNextWriterStarts(Database database) {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-a"));
        List<SpendRow> leftBehind = rows("left", 50, "sk-a");
        try (SpendBuffer earlier = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            earlier.append(leftBehind);
        }
        // The earlier run had posted the first 20 when it died, before forgetting them on disk.
        new SpendLedger(database).post(leftBehind.subList(0, 20));

        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES);
                SpendWriter writer = SpendWriter.start(new SpendLedger(database), buffer, QUICK)) {
            rows("new", 10, "sk-a").forEach(writer::record);
            assertThat(writer.flush(WAIT)).isTrue();
            Eventually.until("the buffer is posted", WAIT, buffer::isEmpty);
        }

        assertThat(new SpendRepository(database).count()).isEqualTo(60);
        assertThat(keys.findByHash(hash("sk-a")).orElseThrow().spend())
                .isEqualTo(sum(leftBehind).add(sum(rows("new", 10, "sk-a"))));
    }

    @Test
    void rowsRecordedWhileTheDatabaseIsCutOffWaitOnDiskAndLandExactlyOnceWhenItReturns() {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress());
                SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            Database direct = store.database();
            KeyRepository keys = new KeyRepository(direct);
            keys.insert(key("sk-a"));
            Database throughProxy = store.openThrough(proxy.port(), QUICK_STORE);
            SpendRow before = row("before", "sk-a", "0.5");
            List<SpendRow> during = rows("during", 200, "sk-a");

            try (SpendWriter writer = SpendWriter.start(new SpendLedger(throughProxy), buffer, QUICK)) {
                writer.record(before);
                assertThat(writer.flush(WAIT)).isTrue();

                proxy.stop();
                for (SpendRow row : during) {
                    assertThat(writer.record(row)).isTrue();
                }
                assertThat(writer.flush(WAIT)).isTrue();

                SpendWriterStatus cutOff = writer.status();
                assertThat(cutOff.sinkReachable()).isFalse();
                assertThat(cutOff.rowsQueued()).isZero();
                assertThat(cutOff.rowsOnDisk()).isEqualTo(200);
                assertThat(cutOff.bytesOnDisk()).isEqualTo(SpendRowJson.lines(during).length);
                assertThat(cutOff.lastError()).startsWith("post spend: ");
                assertThat(new SpendRepository(direct).count()).isEqualTo(1);

                proxy.resume();
                Eventually.until("the buffered rows are posted", WAIT, buffer::isEmpty);
                SpendWriterStatus back = writer.status();
                assertThat(back.sinkReachable()).isTrue();
                assertThat(back.rowsOnDisk()).isZero();
                assertThat(back.bytesOnDisk()).isZero();
            }

            SpendRepository spend = new SpendRepository(direct);
            assertThat(spend.count()).isEqualTo(201);
            for (SpendRow row : during) {
                assertThat(spend.find(row.callId())).contains(row);
            }
            BigDecimal expected = before.cost().add(sum(during));
            assertThat(keys.findByHash(hash("sk-a")).orElseThrow().spend()).isEqualTo(expected);
            assertThat(StoreFixtures.loggedSpendOfKey(store.database(), hash("sk-a"))).isEqualTo(expected);
        }
    }

    @Test
    void rowsAWriterClosedDuringAnOutageLeftOnDiskAreLandedByTheNextWriter() {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress())) {
            Database direct = store.database();
            KeyRepository keys = new KeyRepository(direct);
            keys.insert(key("sk-a"));
            Database throughProxy = store.openThrough(proxy.port(), QUICK_STORE);
            List<SpendRow> rows = rows("outage", 200, "sk-a");

            proxy.stop();
            try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
                SpendWriter writer = SpendWriter.start(new SpendLedger(throughProxy), buffer, QUICK);
                rows.forEach(row -> assertThat(writer.record(row)).isTrue());
                writer.close();

                assertThat(buffer.rows()).isEqualTo(200);
                assertThat(writer.record(row("after-close", "sk-a", "1"))).isFalse();
            }
            proxy.resume();

            try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES);
                    SpendWriter writer = SpendWriter.start(new SpendLedger(throughProxy), buffer, QUICK)) {
                Eventually.until("the rows left on disk are posted", WAIT, buffer::isEmpty);
            }

            assertThat(new SpendRepository(direct).count()).isEqualTo(200);
            assertThat(keys.findByHash(hash("sk-a")).orElseThrow().spend()).isEqualTo(sum(rows));
        }
    }

    @Test
    void withTheDatabaseDownAndTheBufferFullRowsAreRefusedButEveryAcceptedOneIsKept() {
        StoreLocation nowhere = StoreLocation.Postgres.parse("postgresql://postgres@127.0.0.1:" + Ports.refusing() + "/test");
        SpendWriterOptions tight = QUICK.withMaxBatchRows(5).withMaxQueuedRows(10);
        long oneBatch = SpendRowJson.lines(rows("r", 5, "sk-a")).length;
        List<SpendRow> offered = rows("r", 40, "sk-a");
        List<SpendRow> accepted = new ArrayList<>();

        try (Database unreachable = Database.connect(nowhere, QUICK_STORE.withConnectionTimeout(Duration.ofMillis(250)));
                SpendBuffer buffer = SpendBuffer.open(folder, oneBatch + oneBatch / 2)) {
            SpendWriter writer = SpendWriter.start(new SpendLedger(unreachable), buffer, tight);
            offered.subList(0, 5).forEach(writer::record);
            accepted.addAll(offered.subList(0, 5));
            assertThat(writer.flush(WAIT)).isTrue();
            assertThat(buffer.rows()).isEqualTo(5);

            for (SpendRow row : offered.subList(5, offered.size())) {
                if (!writer.record(row)) {
                    break;
                }
                accepted.add(row);
            }

            // Five on disk, ten in the queue, and perhaps a batch of five the writer holds.
            assertThat(accepted).hasSizeBetween(15, 20);
            Eventually.until("the writer holds every row not on disk", WAIT,
                    () -> writer.status().rowsQueued() == accepted.size() - 5);
            SpendWriterStatus full = writer.status();
            assertThat(full.sinkReachable()).isFalse();
            assertThat(full.rowsOnDisk()).isEqualTo(5);
            assertThat(full.bytesOnDisk()).isLessThanOrEqualTo(buffer.maxBytes());

            writer.close();
            assertThat(buffer.rows()).isEqualTo(accepted.size());
            assertThat(writer.status().deadLetters()).isZero();
        }

        try (TestDatabase store = TestDatabases.h2();
                SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES);
                SpendWriter writer = SpendWriter.start(new SpendLedger(store.database()), buffer, QUICK)) {
            Eventually.until("the kept rows are posted", WAIT, buffer::isEmpty);

            SpendRepository spend = new SpendRepository(store.database());
            assertThat(spend.count()).isEqualTo(accepted.size());
            assertThat(StoreFixtures.loggedSpendOfKey(store.database(), hash("sk-a"))).isEqualTo(sum(accepted));
        }
    }

    static SpendRow row(String callId, String rawKey, String cost) {
        return StoreFixtures.row(callId, rawKey, null, "gpt-4o", cost, T0);
    }

    /** Rows of distinct costs, down to the last of the twelve decimals, so a sum shows any row missing or counted twice. */
    static List<SpendRow> rows(String prefix, int count, String rawKey) {
        List<SpendRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(row(prefix + "-" + i, rawKey, String.format("0.%012d", 1_000_003L * (i + 1))));
        }
        return rows;
    }

    static BigDecimal sum(List<SpendRow> rows) {
        return rows.stream().map(SpendRow::cost).reduce(Money.ZERO, BigDecimal::add);
    }
}
