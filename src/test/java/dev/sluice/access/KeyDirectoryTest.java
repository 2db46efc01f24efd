package dev.sluice.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreOptions;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Keys read from the store and kept briefly; kept longer, and only for keys seen, when the store is away. */
class KeyDirectoryTest {
    private static final Duration TTL = Duration.ofSeconds(5);
    private final AtomicLong nanos = new AtomicLong(1_000);
    private final List<String> seeded = new ArrayList<>();

    private KeyDirectory directory(Database database) {
        return new KeyDirectory(new KeyRepository(database), new TeamRepository(database), TTL, nanos::get,
                found -> seeded.add(found.key().tokenHash()));
    }

    private static String insert(Database database, String raw) {
        String hash = VirtualKey.hash(raw);
        new KeyRepository(database).insert(VirtualKey.builder(hash, VirtualKey.maskedName(raw), Instant.now()).build());
        return hash;
    }

    @StoreTest
    void anEntryIsAnsweredFromMemoryAndReadAgainInTheBackgroundOnceItsLifetimeIsOver(Database database) {
        KeyDirectory directory = directory(database);
        String hash = insert(database, "sk-dir-0001");
        assertThat(directory.cached(hash)).isEmpty();
        assertThat(directory.read(hash)).isPresent();
        assertThat(seeded).containsExactly(hash);

        nanos.addAndGet(TTL.toNanos() - 1);
        assertThat(directory.cached(hash)).hasValueSatisfying(found -> assertThat(found).isPresent());
        assertThat(seeded).hasSize(1);

        // Blocked behind the gateway's back: the stale entry still answers, and the background read brings the change.
        KeyRepository keys = new KeyRepository(database);
        keys.update(keys.findByHash(hash).orElseThrow().toBuilder().blocked(true).build());
        nanos.addAndGet(1);
        assertThat(directory.cached(hash).orElseThrow().orElseThrow().key().blocked()).isFalse();
        Eventually.until("the entry is read again", Duration.ofSeconds(5),
                () -> directory.cached(hash).orElseThrow().orElseThrow().key().blocked());
    }

    @StoreTest
    void unknownKeysAreRememberedAndForgettingAnEntryMakesTheNextUseReadTheStore(Database database) {
        KeyDirectory directory = directory(database);
        String hash = VirtualKey.hash("sk-dir-0002");
        assertThat(directory.read(hash)).isEmpty();
        assertThat(directory.cached(hash)).hasValue(Optional.empty());

        insert(database, "sk-dir-0002");
        directory.forget(hash);
        assertThat(directory.cached(hash)).isEmpty();
        assertThat(directory.read(hash)).isPresent();
    }

    @Test
    void whileTheStoreIsAwayKeysSeenAreServedAndUnseenOnesFailAtOnce() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress())) {
            Database through = store.openThrough(proxy.port(), StoreOptions.DEFAULTS.withConnectionTimeout(Duration.ofMillis(500)));
            KeyDirectory directory = directory(through);
            String seen = insert(store.database(), "sk-dir-0003");
            String unseen = insert(store.database(), "sk-dir-0004");
            assertThat(directory.read(seen)).isPresent();

            proxy.stop();
            nanos.addAndGet(TTL.toNanos());
            assertThat(directory.read(seen)).isPresent();
            assertThatThrownBy(() -> directory.read(unseen)).isInstanceOfSatisfying(StoreException.class,
                    e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.UNAVAILABLE));
            // Within the back-off an unseen key fails without waiting on the connection timeout.
            long started = System.nanoTime();
            assertThatThrownBy(() -> directory.read(unseen)).isInstanceOf(StoreException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(400));

            proxy.resume();
            nanos.addAndGet(KeyDirectory.OUTAGE_BACKOFF.toNanos());
            Eventually.until("the store answers again", Duration.ofSeconds(10), () -> {
                try {
                    return directory.read(unseen).isPresent();
                } catch (StoreException e) {
                    nanos.addAndGet(KeyDirectory.OUTAGE_BACKOFF.toNanos());
                    return false;
                }
            });
        }
    }
}
