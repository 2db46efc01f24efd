package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.ModelBudget;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreOptions;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeTime;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestRedis;
import dev.sluice.wire.Json;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Keys read from the store are copied to Redis under their hash, with their settings and a
 * bounded lifetime, and a directory that has never seen a key serves it from its copy while
 * the store cannot be reached, without waiting on the store for each call. A key forgotten
 * (changed, blocked or deleted through the API) or no longer in the store loses its copy at
 * once. Real PostgreSQL (cut through a TCP proxy) and real Redis; time is a fake ticker.
 */
class KeyCopiesTest {
    private static final Duration LIFETIME = Duration.ofHours(6);
    private final String prefix = TestRedis.newPrefix();
    private final FakeTime time = new FakeTime();
    private final AtomicInteger reads = new AtomicInteger();
    private RedisLink link;

    @AfterEach
    void closeRedis() {
        if (link != null) {
            link.close();
        }
        TestRedis.deleteKeys(prefix);
    }

    private KeyCopies copies() {
        if (link == null) {
            link = RedisLink.to(TestRedis.url(), prefix, Duration.ofMillis(500), Duration.ofSeconds(1), Clock.systemUTC());
            link.start(Duration.ofSeconds(2));
        }
        return new RedisKeyCopies(link, LIFETIME);
    }

    /** A directory over {@code database} with its reads counted, keeping copies in {@code copies}. */
    private KeyDirectory directory(Database database, KeyCopies copies) {
        KeyDirectory.Source store = KeyDirectory.Source.of(new KeyRepository(database), new TeamRepository(database));
        KeyDirectory.Source counted = hash -> {
            reads.incrementAndGet();
            return store.find(hash);
        };
        return new KeyDirectory(counted, KeyDirectory.DEFAULT_TTL, time.ticker(), found -> {}, read -> Thread.ofVirtual().start(read))
                .withCopies(copies);
    }

    private static String insert(Database database, String raw) {
        String hash = VirtualKey.hash(raw);
        new KeyRepository(database).insert(VirtualKey.builder(hash, VirtualKey.maskedName(raw), Instant.now())
                .models(List.of("g")).rpmLimit(7L).maxBudget(new BigDecimal("2.5")).spend(new BigDecimal("0.25"))
                .modelMaxBudget(Map.of("g", new ModelBudget(new BigDecimal("1"), Optional.of("1d"))))
                .build());
        return hash;
    }

    private String copyOf(String hash) {
        return TestRedis.command("GET", prefix + "key_copies:" + hash);
    }

    @Test
    void aDirectoryStartedDuringAnOutageServesAKeyFromTheCopyAnotherOneWrote() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress())) {
            StoreOptions quick = StoreOptions.DEFAULTS.withConnectionTimeout(Duration.ofMillis(500));
            String raw = "sk-copy-0001";
            String used = insert(store.database(), raw);
            String unused = insert(store.database(), "sk-copy-0002");
            KeyDirectory before = directory(store.database(), copies());
            KeyDirectory.Found read = before.find(used).join().orElseThrow();

            Eventually.until("the copy is written", Duration.ofSeconds(5), () -> copyOf(used) != null);
            String copy = copyOf(used);
            assertThat(copy).as("the key itself is never written").doesNotContain(raw);
            assertThat(Json.parse(copy.getBytes()).at("/key/tokenHash").asText()).isEqualTo(used);
            long ttl = Long.parseLong(TestRedis.command("PTTL", prefix + "key_copies:" + used));
            assertThat(ttl).as("a bounded lifetime").isPositive().isLessThanOrEqualTo(LIFETIME.toMillis());

            Database through = store.openThrough(proxy.port(), quick);
            proxy.stop();
            KeyDirectory started = directory(through, copies());
            assertThat(started.canCheckKeysWithoutStore()).as("copies can be read").isTrue();

            KeyDirectory.Found served = started.find(used).join().orElseThrow();
            assertThat(served.key()).isEqualTo(read.key());
            assertThat(served.key().models()).containsExactly("g");
            assertThat(served.key().limits().rpmLimit()).hasValue(7);
            assertThatThrownBy(() -> started.find(unused).join()).isInstanceOfSatisfying(CompletionException.class,
                    e -> assertThat(e.getCause()).isInstanceOf(StoreException.class));
            int readsBefore = reads.get();
            long began = System.nanoTime();
            assertThatThrownBy(() -> started.find(VirtualKey.hash("sk-copy-0003")).join()).hasCauseInstanceOf(StoreException.class);
            assertThat(reads).as("a known-down store is not read per call").hasValue(readsBefore);
            assertThat(Duration.ofNanos(System.nanoTime() - began)).as("no wait on the pool").isLessThan(Duration.ofMillis(400));

            proxy.resume();
            time.advance(KeyDirectory.OUTAGE_BACKOFF);
            Eventually.until("the store answers again", Duration.ofSeconds(10), () -> {
                try {
                    return started.find(unused).join().isPresent();
                } catch (CompletionException e) {
                    time.advance(KeyDirectory.OUTAGE_BACKOFF);
                    return false;
                }
            });
        }
    }

    @Test
    void forgottenKeysAndAKeyTheStoreNoLongerHasLoseTheirCopiesAtOnce() throws Exception {
        try (TestDatabase store = TestDatabases.postgres()) {
            String forgotten = insert(store.database(), "sk-copy-0011");
            String deleted = insert(store.database(), "sk-copy-0012");
            KeyDirectory directory = directory(store.database(), copies());
            directory.find(forgotten).join();
            directory.find(deleted).join();
            Eventually.until("both copies are written", Duration.ofSeconds(5),
                    () -> copyOf(forgotten) != null && copyOf(deleted) != null);

            directory.forget(forgotten);
            Eventually.until("the forgotten key's copy is gone", Duration.ofSeconds(5), () -> copyOf(forgotten) == null);

            new KeyRepository(store.database()).delete(deleted);
            directory.forget(deleted);
            assertThat(directory.find(deleted).join()).isEmpty();
            Eventually.until("the deleted key's copy is gone", Duration.ofSeconds(5), () -> copyOf(deleted) == null);

            String ownerChanged = insert(store.database(), "sk-copy-0013");
            directory.find(ownerChanged).join();
            Eventually.until("the third copy is written", Duration.ofSeconds(5), () -> copyOf(ownerChanged) != null);
            directory.forgetAll();
            Eventually.until("every held key's copy is gone", Duration.ofSeconds(5), () -> copyOf(ownerChanged) == null);
        }
    }

    @Test
    void aCopyRedisCouldNotDropIsNeverServedAndIsDroppedWhenRedisIsBack() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy redis = TcpProxy.to(TestRedis.address())) {
            link = RedisLink.to("redis://127.0.0.1:" + redis.port(), prefix, Duration.ofMillis(500), Duration.ofSeconds(1), Clock.systemUTC());
            link.start(Duration.ofSeconds(2));
            KeyCopies copies = new RedisKeyCopies(link, LIFETIME);
            String blocked = insert(store.database(), "sk-copy-0031");
            KeyDirectory directory = directory(store.database(), copies);
            directory.find(blocked).join();
            Eventually.until("the copy is written", Duration.ofSeconds(5), () -> copyOf(blocked) != null);

            redis.stop();
            Eventually.until("the link knows Redis is gone", Duration.ofSeconds(10), () -> !link.isUp());
            directory.forget(blocked);
            assertThat(copyOf(blocked)).as("still in Redis, which could not be told").isNotNull();

            redis.resume();
            Eventually.until("the link is back", Duration.ofSeconds(15), link::isUp);
            assertThat(copies.find(blocked)).as("never served meanwhile").isEmpty();
            Eventually.until("the owed drop is made", Duration.ofSeconds(5), () -> copyOf(blocked) == null);
        }
    }

    @Test
    void withoutCopiesADirectoryHoldingNoKeyCannotCheckKeysWithoutTheStore() throws Exception {
        try (TestDatabase store = TestDatabases.postgres()) {
            String hash = insert(store.database(), "sk-copy-0021");
            KeyDirectory directory = directory(store.database(), KeyCopies.NONE);
            assertThat(directory.canCheckKeysWithoutStore()).isFalse();
            directory.find(VirtualKey.hash("sk-copy-unknown")).join();
            assertThat(directory.canCheckKeysWithoutStore()).as("a key known not to exist checks nothing").isFalse();
            directory.find(hash).join();
            assertThat(directory.canCheckKeysWithoutStore()).as("a key held").isTrue();
        }
    }
}
