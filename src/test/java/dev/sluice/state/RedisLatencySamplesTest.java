package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.router.signals.LatencySeries;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two sample stores on one Redis stand for two replicas: a latency sample taken on one is
 * counted on both, once each. Against the local Redis, each test under a prefix of its own.
 */
class RedisLatencySamplesTest {
    private static final Duration TTL = Duration.ofMinutes(5);

    private final Clock clock = Clock.systemUTC();
    private final RedisReplicas replicas = new RedisReplicas();
    private final String prefix = replicas.prefix();

    @AfterEach
    void cleanUp() throws Exception {
        replicas.close();
    }

    @Test
    void aSampleTakenOnOneReplicaIsSeenByAnotherInItsSeries() {
        RedisLatencySamples a = store(TestRedis.url());
        RedisLatencySamples b = store(TestRedis.url());
        Instant at = clock.instant();

        a.add("deployment one", LatencySeries.FIRST_EVENT, at, 0.25, 10);

        Eventually.until("b has a's sample", Duration.ofSeconds(10),
                () -> !b.recent("deployment one", LatencySeries.FIRST_EVENT, clock.instant(), TTL).isEmpty());
        assertThat(b.recent("deployment one", LatencySeries.FIRST_EVENT, clock.instant(), TTL)).containsExactly(0.25);
        assertThat(b.recent("deployment one", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL)).isEmpty();
        assertThat(b.recent("deployment one", LatencySeries.FIRST_EVENT, at.plus(TTL).plusMillis(1), TTL))
                .as("with the time it was taken").isEmpty();
    }

    @Test
    void aBurstOfSamplesGoesOutTogetherAndArrivesWholeWhateverTheDeploymentIdsHold() {
        RedisLatencySamples a = store(TestRedis.url());
        RedisLatencySamples b = store(TestRedis.url());
        Instant at = clock.instant();
        String awkward = "line\nbreak %0A 100%";

        for (int i = 0; i < 50; i++) {
            a.add(i % 2 == 0 ? "plain" : awkward, LatencySeries.FIRST_EVENT, at, i, 100);
        }

        Eventually.until("b has all fifty", Duration.ofSeconds(10),
                () -> b.recent("plain", LatencySeries.FIRST_EVENT, clock.instant(), TTL).size()
                        + b.recent(awkward, LatencySeries.FIRST_EVENT, clock.instant(), TTL).size() == 50);
        assertThat(b.recent(awkward, LatencySeries.FIRST_EVENT, clock.instant(), TTL)).hasSize(25).contains(1.0, 49.0);
        assertThat(b.received()).as("counted as taken in from another replica").isEqualTo(50);
        assertThat(a.received()).as("a's own, come back on the channel, are not").isZero();
    }

    @Test
    void anIdRoundTripsThroughItsEscapedForm() {
        for (String id : new String[] {"a b", "%", "%25", "%0A", "\r\n", "x%0Ay\nz"}) {
            assertThat(RedisLatencySamples.escaped(id)).doesNotContain("\n").doesNotContain("\r");
            assertThat(RedisLatencySamples.unescaped(RedisLatencySamples.escaped(id))).isEqualTo(id);
        }
    }

    @Test
    void samplesFromBothReplicasAddUpOnceEachWithinTheBound() throws Exception {
        RedisLatencySamples a = store(TestRedis.url());
        RedisLatencySamples b = store(TestRedis.url());
        Instant at = clock.instant();

        a.add("d", LatencySeries.PER_OUTPUT_TOKEN, at, 1.0, 3);
        Eventually.until("b has a's first", Duration.ofSeconds(10),
                () -> b.recent("d", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL).size() == 1);
        b.add("d", LatencySeries.PER_OUTPUT_TOKEN, at, 2.0, 3);
        Eventually.until("a has b's", Duration.ofSeconds(10),
                () -> a.recent("d", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL).size() == 2);
        a.add("d", LatencySeries.PER_OUTPUT_TOKEN, at, 3.0, 3);
        a.add("d", LatencySeries.PER_OUTPUT_TOKEN, at, 4.0, 3);
        Eventually.until("b has all of a's", Duration.ofSeconds(10),
                () -> b.recent("d", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL).contains(4.0));
        // Each store trims to the bound as a sample arrives: wait until both hold their last three.
        Eventually.until("both hold the three latest", Duration.ofSeconds(10),
                () -> a.recent("d", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL).equals(List.of(2.0, 3.0, 4.0))
                        && b.recent("d", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL).equals(List.of(2.0, 3.0, 4.0)));

        assertThat(a.recent("d", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL)).containsExactly(2.0, 3.0, 4.0);
        assertThat(b.recent("d", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL)).containsExactly(2.0, 3.0, 4.0);
        assertThat(b.average("d", LatencySeries.PER_OUTPUT_TOKEN, clock.instant(), TTL)).hasValue(3.0);
    }

    @Test
    void withRedisUnreachableSamplesStayLocalAndSharingResumesWhenItIsBack() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            String url = "redis://127.0.0.1:" + proxy.port();
            RedisLink linkA = link(url);
            RedisLink linkB = link(url);
            RedisLatencySamples a = started(linkA);
            RedisLatencySamples b = started(linkB);

            proxy.stop();
            Eventually.until("both see Redis go", Duration.ofSeconds(10), () -> !linkA.isUp() && !linkB.isUp());
            Instant now = clock.instant();
            long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                a.add("d", LatencySeries.FIRST_EVENT, now, 0.5, 10);
                assertThat(a.average("d", LatencySeries.FIRST_EVENT, now, TTL)).hasValue(0.5);
            }
            assertThat((System.nanoTime() - start) / 1_000_000).as("200 calls, none waiting on Redis").isLessThan(2_000);
            assertThat(b.recent("d", LatencySeries.FIRST_EVENT, now, TTL)).isEmpty();

            proxy.resume();
            Eventually.until("both are back", Duration.ofSeconds(5), () -> linkA.isUp() && linkB.isUp());
            a.add("e", LatencySeries.FIRST_EVENT, clock.instant(), 0.75, 10);
            Eventually.until("b has a's sample again", Duration.ofSeconds(10),
                    () -> !b.recent("e", LatencySeries.FIRST_EVENT, clock.instant(), TTL).isEmpty());
            assertThat(b.recent("d", LatencySeries.FIRST_EVENT, clock.instant(), TTL))
                    .as("samples taken while Redis was away stay local").isEmpty();
        }
    }

    private RedisLatencySamples store(String url) {
        return replicas.store(url, RedisLatencySamples::new);
    }

    private RedisLink link(String url) {
        return replicas.link(url);
    }

    private RedisLatencySamples started(RedisLink link) {
        return replicas.started(link, RedisLatencySamples::new);
    }
}
