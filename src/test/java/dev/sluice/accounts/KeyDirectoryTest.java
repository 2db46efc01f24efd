package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.accounts.limits.Scope;
import dev.sluice.accounts.spend.SpendCounters;
import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreOptions;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeTime;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Keys read from the store and kept briefly; kept longer, and only for keys seen, when the
 * store is away. Time is a fake ticker; store reads are the real store's, counted.
 */
class KeyDirectoryTest {
    private static final Duration TTL = Duration.ofSeconds(5);
    private final FakeTime time = new FakeTime();
    private final List<String> seeded = new CopyOnWriteArrayList<>();
    private final AtomicInteger reads = new AtomicInteger();
    /** Permits for store reads to go ahead; unlimited unless a test holds them back. */
    private final Semaphore readsAllowed = new Semaphore(Integer.MAX_VALUE);

    /** A directory over {@code database} whose every store read is counted and may be held back. */
    private KeyDirectory directory(Database database) {
        KeyDirectory.Source store = KeyDirectory.Source.of(new KeyRepository(database), new TeamRepository(database));
        KeyDirectory.Source counted = hash -> {
            reads.incrementAndGet();
            try {
                if (!readsAllowed.tryAcquire(10, TimeUnit.SECONDS)) {
                    throw new AssertionError("a store read was held back for 10 s");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            return store.find(hash);
        };
        return new KeyDirectory(counted, TTL, time.ticker(), found -> seeded.add(found.key().tokenHash()),
                read -> Thread.ofVirtual().start(read));
    }

    private static String insert(Database database, String raw) {
        String hash = VirtualKey.hash(raw);
        new KeyRepository(database).insert(VirtualKey.builder(hash, VirtualKey.maskedName(raw), Instant.now()).build());
        return hash;
    }

    private static Optional<KeyDirectory.Found> now(CompletableFuture<Optional<KeyDirectory.Found>> found) {
        assertThat(found).as("answered without waiting on the store").isCompleted();
        return found.join();
    }

    private static boolean blocked(KeyDirectory directory, String hash) {
        return now(directory.find(hash)).orElseThrow().key().blocked();
    }

    @StoreTest
    void anEntryIsFreshThroughItsWholeLifetime(Database database) {
        KeyDirectory directory = directory(database);
        String hash = insert(database, "sk-dir-0001");
        assertThat(directory.find(hash).join()).isPresent();
        assertThat(seeded).containsExactly(hash);

        time.advance(TTL);
        for (int i = 0; i < 5; i++) {
            assertThat(now(directory.find(hash))).isPresent();
        }
        assertThat(reads).hasValue(1);
        assertThat(seeded).hasSize(1);
    }

    @StoreTest
    void aStaleEntryIsAnsweredAtOnceWhileOneBackgroundReadBringsTheChange(Database database) throws Exception {
        KeyDirectory directory = directory(database);
        String hash = insert(database, "sk-dir-0002");
        directory.find(hash).join();
        KeyRepository keys = new KeyRepository(database);
        keys.update(keys.findByHash(hash).orElseThrow().toBuilder().blocked(true).build());

        readsAllowed.drainPermits();
        time.advance(TTL.plusNanos(1));
        // Blocked behind the gateway's back: while the one refresh is held, every lookup gets the old entry at once.
        for (int i = 0; i < 5; i++) {
            assertThat(blocked(directory, hash)).isFalse();
        }
        Eventually.until("the refresh has begun", Duration.ofSeconds(5), () -> reads.get() == 2);
        readsAllowed.release(Integer.MAX_VALUE);
        Eventually.until("the entry is read again", Duration.ofSeconds(5), () -> blocked(directory, hash));
        assertThat(reads).hasValue(2);
        assertThat(seeded).containsExactly(hash, hash);
    }

    @StoreTest
    void concurrentLookupsOfAnUnseenKeyShareOneStoreRead(Database database) throws Exception {
        KeyDirectory directory = directory(database);
        String hash = insert(database, "sk-dir-0003");
        int callers = 8;
        CountDownLatch asked = new CountDownLatch(callers);
        readsAllowed.drainPermits();
        List<CompletableFuture<Optional<KeyDirectory.Found>>> answers = new CopyOnWriteArrayList<>();

        Concurrently.run(callers, thread -> {
            answers.add(directory.find(hash));
            asked.countDown();
            assertThat(asked.await(10, TimeUnit.SECONDS)).isTrue();
            readsAllowed.release(1);
        });

        assertThat(answers).hasSize(callers).allSatisfy(answer -> assertThat(answer.join()).isPresent());
        assertThat(reads).hasValue(1);
        assertThat(seeded).containsExactly(hash);
    }

    @StoreTest
    void unknownKeysAreRememberedAndForgettingAnEntryMakesTheNextUseReadTheStore(Database database) {
        KeyDirectory directory = directory(database);
        String hash = VirtualKey.hash("sk-dir-0004");
        assertThat(directory.find(hash).join()).isEmpty();
        assertThat(now(directory.find(hash))).isEmpty();
        assertThat(reads).hasValue(1);

        insert(database, "sk-dir-0004");
        directory.forget(hash);
        assertThat(directory.find(hash).join()).isPresent();
        assertThat(reads).hasValue(2);
    }

    @StoreTest
    void forgettingATeamDropsItsKeysOnly(Database database) {
        KeyDirectory directory = directory(database);
        new TeamRepository(database).insert(dev.sluice.store.Team.builder("team-d", Instant.now()).build());
        String inTeam = VirtualKey.hash("sk-dir-0005");
        new KeyRepository(database).insert(VirtualKey.builder(inTeam, VirtualKey.maskedName("sk-dir-0005"), Instant.now())
                .teamId("team-d").build());
        String alone = insert(database, "sk-dir-0006");
        assertThat(directory.find(inTeam).join().orElseThrow().team()).isPresent();
        directory.find(alone).join();

        directory.forgetTeam("team-d");

        assertThat(now(directory.find(alone))).isPresent();
        assertThat(reads).hasValue(2);
        assertThat(directory.find(inTeam).join()).isPresent();
        assertThat(reads).hasValue(3);
    }

    @StoreTest
    void aMembershipChangeDropsItsTeamsKeysAUserChangeItsKeysAndAnOrganizationChangeItsTeamsKeys(Database database) {
        KeyDirectory directory = directory(database);
        AccountChanges changes = new HeldAccountChanges(Optional.of(directory), new SpendCounters(java.time.Clock.systemUTC()));
        new dev.sluice.store.OrganizationRepository(database).insert(dev.sluice.store.Organization.builder("org", Instant.now()).build());
        new TeamRepository(database).insert(dev.sluice.store.Team.builder("team-m", Instant.now()).organizationId("org").build());
        String inTeam = VirtualKey.hash("sk-dir-0010");
        new KeyRepository(database).insert(VirtualKey.builder(inTeam, VirtualKey.maskedName("sk-dir-0010"), Instant.now())
                .teamId("team-m").userId("ada").build());
        String alone = insert(database, "sk-dir-0011");
        directory.find(inTeam).join();
        directory.find(alone).join();
        assertThat(reads).hasValue(2);

        changes.ownerChanged(new Scope.TeamMember("team-m", "ada"));
        assertThat(directory.held(inTeam)).as("the team's key, read again with the member's new budget").isEmpty();
        assertThat(directory.held(alone)).as("a key of no team").isPresent();

        directory.find(inTeam).join();
        changes.ownerChanged(new Scope.User("ada"));
        assertThat(directory.held(inTeam)).as("ada's key").isEmpty();
        assertThat(directory.held(alone)).as("a key of no user").isPresent();

        directory.find(inTeam).join();
        changes.ownerChanged(new Scope.Organization("org"));
        assertThat(directory.held(inTeam)).as("a key of the organization's team").isEmpty();
        assertThat(directory.held(alone)).as("a key of no organization").isPresent();
        assertThat(reads).hasValue(4);
    }

    @Test
    void whileTheStoreIsAwayKeysSeenAreServedAndUnseenOnesFailAtOnce() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress())) {
            Database through = store.openThrough(proxy.port(), StoreOptions.DEFAULTS.withConnectionTimeout(Duration.ofMillis(500)));
            KeyDirectory directory = directory(through);
            String seen = insert(store.database(), "sk-dir-0007");
            String unseen = insert(store.database(), "sk-dir-0008");
            assertThat(directory.find(seen).join()).isPresent();

            proxy.stop();
            time.advance(TTL.plusNanos(1));
            assertThat(now(directory.find(seen))).isPresent();
            Eventually.until("the refresh found the store away", Duration.ofSeconds(10), () -> reads.get() == 2
                    && now(directory.find(seen)).isPresent());
            assertThatThrownBy(() -> directory.find(unseen).join()).isInstanceOfSatisfying(CompletionException.class,
                    e -> assertThat(e.getCause()).isInstanceOfSatisfying(StoreException.class,
                            cause -> assertThat(cause.reason()).isEqualTo(StoreException.Reason.UNAVAILABLE)));
            int readsBefore = reads.get();
            // Within the back-off an unseen key fails without a store read, so without waiting on the connection timeout.
            time.advance(KeyDirectory.OUTAGE_BACKOFF.minusNanos(1));
            assertThatThrownBy(() -> directory.find(unseen).join()).hasCauseInstanceOf(StoreException.class);
            assertThat(reads).hasValue(readsBefore);
            // The stale key keeps serving its last read while its refreshes fail.
            time.advance(TTL.plusNanos(1));
            assertThat(now(directory.find(seen))).isPresent();

            proxy.resume();
            time.advance(KeyDirectory.OUTAGE_BACKOFF);
            Eventually.until("the store answers again", Duration.ofSeconds(10), () -> {
                try {
                    return directory.find(unseen).join().isPresent();
                } catch (CompletionException e) {
                    time.advance(KeyDirectory.OUTAGE_BACKOFF);
                    return false;
                }
            });
        }
    }
}
