package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.TIME;
import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Database;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendSink;
import dev.sluice.store.StoreOptions;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real PostgreSQL that becomes unreachable (a proxy in front of it closes) for long enough
 * for the shipper's back-off to reach its longest, then returns just as a post has failed: the
 * journal is posted within that longest back-off, not that plus the store's connection
 * timeout the failed post waited out.
 */
class JournalShipperOutageTest {
    private static final Duration LONGEST_BACKOFF = Duration.ofSeconds(1);
    /** Longer than the back-off, as the store's 5 s is as long as the shipper's. */
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(2);
    /** What a loaded machine adds to connecting and posting once the database is back. */
    private static final Duration SLACK = Duration.ofSeconds(1);

    @TempDir
    Path folder;

    @Test
    void theJournalIsPostedWithinTheLongestBackOffOfTheDatabasesReturn() throws Exception {
        AtomicInteger failedPosts = new AtomicInteger();
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress())) {
            Database database = store.openThrough(proxy.port(),
                    StoreOptions.DEFAULTS.withConnectionTimeout(CONNECTION_TIMEOUT));
            SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
            SpendSink counted = new SpendSink() {
                @Override
                public int post(java.util.List<dev.sluice.store.SpendRow> rows, dev.sluice.store.JournalMark through) {
                    try {
                        return ledger.post(rows, through);
                    } catch (RuntimeException e) {
                        failedPosts.incrementAndGet();
                        throw e;
                    }
                }

                @Override
                public java.util.Optional<dev.sluice.store.JournalMark> shippedThrough(String journal) {
                    return ledger.shippedThrough(journal);
                }
            };
            ShipperOptions options = ShipperOptions.DEFAULTS.withGatherWait(Duration.ofMillis(5))
                    .withRetry(Duration.ofMillis(20), LONGEST_BACKOFF);
            try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), JOBS);
                    JournalShipper shipper = JournalShipper.start(journal, counted, options, JOBS)) {
                journal.append(row("before"));
                assertThat(shipper.flush(JournalFixtures.WAIT)).isTrue();

                proxy.stop();
                journal.append(row("during"));
                // Ten seconds away: the pool, failing to connect, now waits 5 s between its attempts.
                long away = System.nanoTime();
                Eventually.until("ten seconds of failed posts", Duration.ofSeconds(30),
                        () -> System.nanoTime() - away > Duration.ofSeconds(10).toNanos() && failedPosts.get() > 3);
                int failed = failedPosts.get();
                Eventually.until("a post fails", Duration.ofSeconds(10), () -> failedPosts.get() > failed);
                proxy.resume();
                long back = System.nanoTime();
                SpendRepository spendLog = new SpendRepository(store.database());
                Eventually.until("the row lands", Duration.ofSeconds(30), () -> spendLog.find("during").isPresent());

                assertThat(Duration.ofNanos(System.nanoTime() - back)).isLessThan(LONGEST_BACKOFF.plus(SLACK));
            }
        }
    }
}
