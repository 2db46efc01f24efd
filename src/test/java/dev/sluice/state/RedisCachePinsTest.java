package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two pin stores on one Redis stand for two replicas: a conversation pinned through one is
 * pinned on the other. Against the local Redis, each test under a key prefix of its own.
 */
class RedisCachePinsTest {

    private final Clock clock = Clock.systemUTC();
    private final RedisReplicas replicas = new RedisReplicas();
    private final String prefix = replicas.prefix();

    @AfterEach
    void cleanUp() throws Exception {
        replicas.close();
    }

    @Test
    void aPinMadeThroughOneReplicaIsSeenByAnotherWithinASecond() {
        RedisCachePins a = store(TestRedis.url());
        RedisCachePins b = store(TestRedis.url());

        a.pin("conversation one", "deployment a", clock.instant().plusSeconds(300));

        Eventually.until("b sees a's pin", Duration.ofSeconds(10),
                () -> b.pinned("conversation one", clock.instant()).isPresent());
        assertThat(b.pinned("conversation one", clock.instant())).hasValue("deployment a");
        assertThat(b.pinned("conversation two", clock.instant())).isEmpty();
        long ttl = Long.parseLong(TestRedis.command("PTTL", prefix + "pins:conversation one"));
        assertThat(ttl).as("the key expires with the pin").isBetween(298_000L, 300_000L);
    }

    @Test
    void theNewestPinForAConversationWinsOnEveryReplica() {
        RedisCachePins a = store(TestRedis.url());
        RedisCachePins b = store(TestRedis.url());
        a.pin("c", "first", clock.instant().plusSeconds(300));
        Eventually.until("b sees the first pin", Duration.ofSeconds(10), () -> b.pinned("c", clock.instant()).isPresent());

        b.pin("c", "second", clock.instant().plusSeconds(300));

        Eventually.until("a sees the newer pin", Duration.ofSeconds(10),
                () -> a.pinned("c", clock.instant()).equals(Optional.of("second")));
    }

    @Test
    void aReplicaThatMissedAPinFetchesItAfterTheFirstMiss() {
        RedisCachePins a = store(TestRedis.url());
        a.pin("c", "d", clock.instant().plusSeconds(300));
        Eventually.until("the pin is in Redis", Duration.ofSeconds(10), () -> TestRedis.command("GET", prefix + "pins:c") != null);

        RedisCachePins late = store(TestRedis.url());

        assertThat(late.pinned("c", clock.instant())).as("not heard of yet: the miss asks Redis").isEmpty();
        Eventually.until("the fetched pin answers the next read", Duration.ofSeconds(10),
                () -> late.pinned("c", clock.instant()).isPresent());
        assertThat(late.pinned("c", clock.instant())).hasValue("d");
    }

    @Test
    void withRedisUnreachablePinsAnswerLocallyAndSharingResumesWhenItIsBack() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            String url = "redis://127.0.0.1:" + proxy.port();
            RedisLink linkA = link(url);
            RedisLink linkB = link(url);
            RedisCachePins a = started(linkA);
            RedisCachePins b = started(linkB);

            proxy.stop();
            Eventually.until("both see Redis go", Duration.ofSeconds(10), () -> !linkA.isUp() && !linkB.isUp());
            Instant now = clock.instant();
            long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                a.pin("c" + i, "d", now.plusSeconds(300));
                assertThat(a.pinned("c" + i, now)).hasValue("d");
                assertThat(b.pinned("c" + i, now)).isEmpty();
            }
            assertThat((System.nanoTime() - start) / 1_000_000).as("300 calls, none waiting on Redis").isLessThan(2_000);

            proxy.resume();
            Eventually.until("both are back", Duration.ofSeconds(5), () -> linkA.isUp() && linkB.isUp());
            a.pin("after", "d", clock.instant().plusSeconds(300));
            Eventually.until("b sees a's pin again", Duration.ofSeconds(10), () -> b.pinned("after", clock.instant()).isPresent());
            assertThat(b.pinned("c0", clock.instant())).as("pins made while Redis was away stay local").isEmpty();
        }
    }

    private RedisCachePins store(String url) {
        return replicas.store(url, link -> new RedisCachePins(link, clock));
    }

    private RedisLink link(String url) {
        return replicas.link(url);
    }

    private RedisCachePins started(RedisLink link) {
        return replicas.started(link, started -> new RedisCachePins(started, clock));
    }
}
