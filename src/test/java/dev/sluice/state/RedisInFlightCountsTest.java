package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FailingOnceClock;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import dev.sluice.time.JobRestarts;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two count stores on one Redis stand for two replicas: each sees its own calls plus the
 * other's announced ones, and forgets the other's once they are no longer renewed. Against
 * the local Redis, each test under a prefix of its own.
 */
class RedisInFlightCountsTest {
    private static final Duration HEARTBEAT = Duration.ofMillis(100);
    private static final Duration LEASE = Duration.ofMillis(300);

    private final RedisReplicas replicas = new RedisReplicas();
    private final String prefix = replicas.prefix();

    @AfterEach
    void cleanUp() throws Exception {
        replicas.close();
    }

    @Test
    void countsFromTwoReplicasAddUpWithinASecondAndFallAsCallsEnd() {
        RedisInFlightCounts a = counts(link(TestRedis.url()), Clock.systemUTC(), RedisInFlightCounts.DEFAULT_HEARTBEAT,
                RedisInFlightCounts.DEFAULT_LEASE);
        RedisInFlightCounts b = counts(link(TestRedis.url()), Clock.systemUTC(), RedisInFlightCounts.DEFAULT_HEARTBEAT,
                RedisInFlightCounts.DEFAULT_LEASE);

        a.started("deployment one");
        a.started("deployment one");
        b.started("deployment one");
        b.started("two");

        Eventually.until("both see three on one", Duration.ofSeconds(10),
                () -> a.count("deployment one") == 3 && b.count("deployment one") == 3);
        assertThat(a.count("two")).isEqualTo(1);
        assertThat(b.count("two")).isEqualTo(1);
        assertThat(a.count("three")).isZero();

        a.ended("deployment one");
        b.ended("two");
        Eventually.until("the ends are seen", Duration.ofSeconds(10),
                () -> b.count("deployment one") == 2 && a.count("two") == 0);
        assertThat(a.count("deployment one")).isEqualTo(2);
    }

    @Test
    void aReplicaThatStopsAnnouncingHasItsCountsLapseWhenTheLeaseRunsOut() throws Exception {
        FakeClock bClock = new FakeClock();
        RedisInFlightCounts a = counts(link(TestRedis.url()), Clock.systemUTC(), HEARTBEAT, LEASE);
        RedisInFlightCounts b = counts(link(TestRedis.url()), bClock, HEARTBEAT, LEASE);

        a.started("d");
        Eventually.until("b sees a's call", Duration.ofSeconds(10), () -> b.count("d") == 1);
        a.close();
        // A real wait: a heartbeat a sent before it closed may still be on its way, and b would stamp
        // it at the time its clock is moved to below; nothing shows when the last one has landed.
        Thread.sleep(3 * HEARTBEAT.toMillis());

        // b stamped a's last heartbeat with its own clock, which has not moved since.
        bClock.advance(LEASE.minusMillis(1));
        assertThat(b.count("d")).as("just inside the lease").isEqualTo(1);
        bClock.advance(Duration.ofMillis(1));
        assertThat(b.count("d")).as("the lease is over").isZero();
    }

    @Test
    void heartbeatsGoOnAfterOneThatRanOutOfMemory() {
        FakeClock bClock = new FakeClock();
        FailingOnceClock aClock = FailingOnceClock.disarmed(Clock.systemUTC());
        long restartsBefore = JobRestarts.process().of("inflight-announcer");
        RedisInFlightCounts a = counts(link(TestRedis.url()), aClock, HEARTBEAT, LEASE);
        RedisInFlightCounts b = counts(link(TestRedis.url()), bClock, HEARTBEAT, LEASE);
        a.started("d");
        Eventually.until("b sees a's call", Duration.ofSeconds(10), () -> b.count("d") == 1);

        aClock.arm(); // a's beat reads its clock after announcing, to forget lapsed counts: the next one dies there
        Eventually.until("a heartbeat failed", Duration.ofSeconds(10), aClock::failed);
        bClock.advance(LEASE); // what b heard before the failure has lapsed

        // Each look moves b's clock a lease on, so each count b sees is a message that came since the last
        // look. The failing beat announced before it died: two messages need a beat after it.
        int[] heard = {0};
        Eventually.until("two heartbeats after the failure", Duration.ofSeconds(10), () -> {
            if (b.count("d") == 1) {
                heard[0]++;
            }
            bClock.advance(LEASE);
            return heard[0] >= 2;
        });
        assertThat(JobRestarts.process().of("inflight-announcer")).isGreaterThan(restartsBefore);
    }

    @Test
    void aReplicaStillAnnouncingKeepsItsCountsPastTheLease() throws Exception {
        // A lease twenty heartbeats long: only a stall of most of it, not one late heartbeat, could lapse it.
        Duration lease = Duration.ofSeconds(2);
        RedisInFlightCounts a = counts(link(TestRedis.url()), Clock.systemUTC(), HEARTBEAT, lease);
        RedisInFlightCounts b = counts(link(TestRedis.url()), Clock.systemUTC(), HEARTBEAT, lease);

        a.started("d");
        Eventually.until("b sees a's call", Duration.ofSeconds(10), () -> b.count("d") == 1);
        for (int i = 0; i < 10; i++) {
            // A real wait: heartbeats run on a's own timer, and the lease counts the system clock's
            // time; ten of these outlast the lease.
            Thread.sleep(300);
            assertThat(b.count("d")).as("renewed by heartbeats").isEqualTo(1);
        }
    }

    @Test
    void withRedisUnreachableEachReplicaAnswersWithItsOwnCountsWithoutWaiting() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            String url = "redis://127.0.0.1:" + proxy.port();
            RedisLink linkA = link(url);
            RedisLink linkB = link(url);
            RedisInFlightCounts a = counts(linkA, Clock.systemUTC(), HEARTBEAT, LEASE);
            RedisInFlightCounts b = counts(linkB, Clock.systemUTC(), HEARTBEAT, LEASE);
            a.started("d");
            Eventually.until("b sees a's call", Duration.ofSeconds(10), () -> b.count("d") == 1);

            proxy.stop();
            Eventually.until("both see Redis go", Duration.ofSeconds(10), () -> !linkA.isUp() && !linkB.isUp());
            assertThat(b.count("d")).as("a's count is not believed while Redis is away").isZero();
            long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                b.started("d");
                assertThat(b.count("d")).isEqualTo(i + 1);
            }
            for (int i = 0; i < 100; i++) {
                b.ended("d");
            }
            assertThat((System.nanoTime() - start) / 1_000_000).as("300 calls, none waiting on Redis").isLessThan(2_000);
            assertThat(a.count("d")).isEqualTo(1);
            assertThat(b.count("d")).isZero();

            proxy.resume();
            Eventually.until("both are back", Duration.ofSeconds(5), () -> linkA.isUp() && linkB.isUp());
            Eventually.until("b sees a's call again", Duration.ofSeconds(10), () -> b.count("d") == 1);
        }
    }

    @Test
    void aLeaseNoLongerThanTheHeartbeatIsRefused() {
        RedisLink link = link(TestRedis.url());
        assertThatThrownBy(() -> new RedisInFlightCounts(link, Clock.systemUTC(), replicas.jobs(), Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .hasMessageContaining("lease: PT1S (expected: longer than the heartbeat, PT1S)");
    }

    private RedisLink link(String url) {
        return replicas.link(url);
    }

    private RedisInFlightCounts counts(RedisLink link, Clock clock, Duration heartbeat, Duration lease) {
        return replicas.started(link, started -> new RedisInFlightCounts(started, clock, replicas.jobs(), heartbeat, lease));
    }
}
