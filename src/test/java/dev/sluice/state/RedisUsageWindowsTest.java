package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.router.signals.UsageWindows.Usage;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two usage stores on one Redis stand for two replicas: claims on a deployment's window are
 * exact across both, and each store's local view learns the shared totals from Redis's replies.
 * Against the local Redis, each test under a prefix of its own.
 */
class RedisUsageWindowsTest {
    private static final Instant MINUTE = FakeClock.START.plusSeconds(5);
    private static final OptionalInt NONE = OptionalInt.empty();

    private final RedisReplicas replicas = new RedisReplicas();

    @AfterEach
    void cleanUp() throws Exception {
        replicas.close();
    }

    private RedisUsageWindows windows() {
        return windows(TestRedis.url());
    }

    private RedisUsageWindows windows(String url) {
        return replicas.store(url, RedisUsageWindows::new);
    }

    private static boolean claimed(Future<Boolean> claim) {
        try {
            return claim.await(5, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no answer within 5 s", e);
        }
    }

    @Test
    void fortyClaimsRacingThroughTwoReplicasOnRpmTenTakeExactlyTen() {
        RedisUsageWindows a = windows();
        RedisUsageWindows b = windows();

        List<Future<Boolean>> claims = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            claims.add((i % 2 == 0 ? a : b).claim("d", MINUTE, OptionalInt.of(10), NONE, 0));
        }

        assertThat(claims.stream().filter(RedisUsageWindowsTest::claimed).count()).isEqualTo(10);
        assertThat(a.current("d", MINUTE).requests()).as("a's view after a refused claim").isEqualTo(10);
        assertThat(a.claimedLocally() + b.claimedLocally()).isZero();
    }

    @Test
    void tokensRecordedOnOneReplicaCountInTheOthersTpmClaim() {
        RedisUsageWindows a = windows();
        RedisUsageWindows b = windows();

        a.record("d", MINUTE, 0, 900);
        // The record is sent without waiting: b refuses once it has landed, and learns the total from its reply.
        Eventually.until("b refuses 101 tokens over 900", Duration.ofSeconds(10),
                () -> !claimed(b.claim("d", MINUTE, NONE, OptionalInt.of(1000), 101)));
        assertThat(b.current("d", MINUTE).tokens()).isEqualTo(900);
        assertThat(claimed(b.claim("d", MINUTE, NONE, OptionalInt.of(1000), 100))).as("900 + 100 = 1000").isTrue();
        assertThat(claimed(a.claim("d", MINUTE.plusSeconds(60), NONE, OptionalInt.of(1000), 1000)))
                .as("the next minute starts from zero").isTrue();
    }

    @Test
    void withoutRedisAReplicaClaimsOnItsOwnView() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            RedisUsageWindows a = windows("redis://127.0.0.1:" + proxy.port());
            assertThat(claimed(a.claim("d", MINUTE, OptionalInt.of(2), NONE, 0))).isTrue();

            proxy.stop();
            assertThat(claimed(a.claim("d", MINUTE, OptionalInt.of(2), NONE, 0))).as("the second, on its own count").isTrue();
            assertThat(claimed(a.claim("d", MINUTE, OptionalInt.of(2), NONE, 0))).isFalse();
            assertThat(a.claimedLocally()).isEqualTo(2);
        }
    }
}
