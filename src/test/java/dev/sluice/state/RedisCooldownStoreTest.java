package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.Ports;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two stores on one Redis stand for two replicas: what one benches or counts, the other
 * sees. Against the local Redis, each test under a key prefix of its own that it deletes.
 */
class RedisCooldownStoreTest {
    private static final Duration WINDOW = Duration.ofSeconds(60);

    private final Clock clock = Clock.systemUTC();
    private final RedisReplicas replicas = new RedisReplicas();
    private final String prefix = replicas.prefix();

    @AfterEach
    void cleanUp() throws Exception {
        replicas.close();
    }

    @Test
    void aBenchMadeThroughOneReplicaIsSeenByAnotherWithinASecond() {
        RedisCooldownStore a = store(TestRedis.url());
        RedisCooldownStore b = store(TestRedis.url());
        Instant until = clock.instant().truncatedTo(ChronoUnit.MILLIS).plusSeconds(30);

        a.bench("d", until);

        Eventually.until("b sees a's bench", Duration.ofSeconds(10), () -> b.benchedUntil("d", clock.instant()).isPresent());
        assertThat(b.benchedUntil("d", clock.instant())).hasValue(until);
        assertThat(b.benchedUntil("other", clock.instant())).isEmpty();
    }

    @Test
    void aReplicaStartingLaterReadsTheBenchesInForce() {
        RedisCooldownStore a = store(TestRedis.url());
        Instant until = clock.instant().truncatedTo(ChronoUnit.MILLIS).plusSeconds(30);
        a.bench("d", until);
        Eventually.until("the bench is in Redis", Duration.ofSeconds(10),
                () -> TestRedis.command("ZSCORE", prefix + "cooldown:benches", "d") != null);

        RedisCooldownStore late = store(TestRedis.url());

        Eventually.until("the late replica reads it", Duration.ofSeconds(10),
                () -> late.benchedUntil("d", clock.instant()).isPresent());
        assertThat(late.benchedUntil("d", clock.instant())).hasValue(until);
    }

    @Test
    void aClearThroughOneReplicaLiftsTheBenchOnAnother() {
        RedisCooldownStore a = store(TestRedis.url());
        RedisCooldownStore b = store(TestRedis.url());
        a.bench("d", clock.instant().plusSeconds(30));
        Eventually.until("b sees the bench", Duration.ofSeconds(10), () -> b.benchedUntil("d", clock.instant()).isPresent());

        a.clear("d");

        Eventually.until("b sees the clear", Duration.ofSeconds(10), () -> b.benchedUntil("d", clock.instant()).isEmpty());
    }

    @Test
    void failureCountsFromTwoReplicasAddUpAndCrossTheAllowanceWhereverTheLastOneIsSeen() throws Exception {
        RedisCooldownStore a = store(TestRedis.url());
        RedisCooldownStore b = store(TestRedis.url());
        String counter = prefix + "cooldown:fails:d:SERVER";
        Runnable never = () -> { throw new AssertionError("within the allowance"); };

        assertThat(a.countFailure("d", FailureClass.SERVER, clock.instant(), WINDOW, 2, never)).isEqualTo(1);
        assertThat(a.countFailure("d", FailureClass.SERVER, clock.instant(), WINDOW, 2, never)).isEqualTo(2);
        Eventually.until("a's two failures are counted in Redis", Duration.ofSeconds(10),
                () -> "2".equals(TestRedis.command("GET", counter)));
        assertThat(Long.parseLong(TestRedis.command("PTTL", counter))).isBetween(59_000L, 60_000L);

        CountDownLatch crossed = new CountDownLatch(1);
        int answered = b.countFailure("d", FailureClass.SERVER, clock.instant(), WINDOW, 2, crossed::countDown);

        assertThat(answered).as("b has seen one failure and heard no shared total yet").isEqualTo(1);
        assertThat(crossed.await(1, TimeUnit.SECONDS)).as("the shared total of 3 is over the allowance of 2").isTrue();
        assertThat(b.countFailure("d", FailureClass.SERVER, clock.instant(), WINDOW))
                .as("the last total b heard, and this failure").isEqualTo(4);
        assertThat(b.countFailure("d", FailureClass.TIMEOUT, clock.instant(), WINDOW)).as("another class counts apart").isEqualTo(1);
    }

    @Test
    void aBenchForgetsTheSharedCounts() {
        RedisCooldownStore a = store(TestRedis.url());
        String counter = prefix + "cooldown:fails:d:SERVER";
        a.countFailure("d", FailureClass.SERVER, clock.instant(), WINDOW);
        Eventually.until("counted", Duration.ofSeconds(10), () -> "1".equals(TestRedis.command("GET", counter)));

        a.bench("d", clock.instant().plusSeconds(30));

        Eventually.until("the counter is gone", Duration.ofSeconds(10), () -> TestRedis.command("GET", counter) == null);
    }

    @Test
    void withRedisUnreachableEveryMethodAnswersAtOnceFromLocalState() {
        RedisCooldownStore alone = store("redis://127.0.0.1:" + Ports.refusing());
        Instant now = clock.instant();
        AtomicInteger crossed = new AtomicInteger();

        long start = System.nanoTime();
        for (int i = 1; i <= 100; i++) {
            assertThat(alone.countFailure("d" + i, FailureClass.SERVER, now, WINDOW, 0, crossed::incrementAndGet)).isEqualTo(1);
            alone.bench("d" + i, now.plusSeconds(30));
            assertThat(alone.benchedUntil("d" + i, now)).hasValue(now.plusSeconds(30));
            alone.clear("d" + i);
            assertThat(alone.benchedUntil("d" + i, now)).isEmpty();
        }
        long tookMillis = (System.nanoTime() - start) / 1_000_000;

        assertThat(tookMillis).as("500 calls with Redis away, none waiting on it").isLessThan(2_000);
        assertThat(crossed).hasValue(0);
    }

    @Test
    void replicasShareAgainWhenRedisComesBack() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            String url = "redis://127.0.0.1:" + proxy.port();
            RedisLink linkA = link(url);
            RedisLink linkB = link(url);
            RedisCooldownStore a = started(linkA);
            RedisCooldownStore b = started(linkB);
            assertThat(linkA.isUp() && linkB.isUp()).isTrue();

            proxy.stop();
            Eventually.until("both see Redis go", Duration.ofSeconds(10), () -> !linkA.isUp() && !linkB.isUp());
            Instant until = clock.instant().truncatedTo(ChronoUnit.MILLIS).plusSeconds(30);
            a.bench("d", until);
            assertThat(a.benchedUntil("d", clock.instant())).as("a serves on its own state").hasValue(until);
            assertThat(b.benchedUntil("d", clock.instant())).isEmpty();

            proxy.resume();

            // Each link reconnects on its own, after a wait that doubles up to two seconds, and on
            // a loaded machine a reply slower than the 50 ms call budget takes a link down again
            // for another round: the bounds leave room for several rounds, and cost nothing when
            // the bench arrives at once.
            Eventually.until("b sees the bench a made while Redis was away", Duration.ofSeconds(20),
                    () -> b.benchedUntil("d", clock.instant()).isPresent());
            assertThat(b.benchedUntil("d", clock.instant())).hasValue(until);
            b.bench("e", until);
            Eventually.until("and a sees b's", Duration.ofSeconds(10), () -> a.benchedUntil("e", clock.instant()).isPresent());
        }
    }

    private RedisCooldownStore store(String url) {
        return replicas.store(url, link -> new RedisCooldownStore(link, clock));
    }

    private RedisLink link(String url) {
        return replicas.link(url);
    }

    private RedisCooldownStore started(RedisLink link) {
        return replicas.started(link, started -> new RedisCooldownStore(started, clock));
    }
}
