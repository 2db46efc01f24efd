package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.redis.RedisAddress;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The response cache in the local Redis, each test under a key prefix of its own; an outage is
 * a {@link TcpProxy} in front of Redis that stops, then listens again.
 */
class RedisResponseCacheTest {
    private final String prefix = TestRedis.newPrefix();
    private final AtomicLong millis = new AtomicLong(1_000_000);

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void anEntryIsStoredUnderThePrefixWithItsTtlAndReadBack() throws Exception {
        try (RedisResponseCache cache = cache(TestRedis.url())) {
            await(cache.put("ns:abc", bytes("entry"), Optional.of(Duration.ofSeconds(30))));

            assertThat(await(cache.get("ns:abc")).map(RedisResponseCacheTest::text)).hasValue("entry");
            assertThat(await(cache.get("ns:other"))).isEmpty();
            assertThat(Long.parseLong(TestRedis.command("PTTL", prefix + "cache:ns:abc"))).isBetween(28_000L, 30_000L);
            await(cache.put("forever", bytes("x"), Optional.empty()));
            assertThat(TestRedis.command("PTTL", prefix + "cache:forever")).isEqualTo("-1");
            assertThat(cache.unavailable()).isZero();
        }
    }

    @Test
    void withRedisGoneReadsAreMissesWritesAreDroppedAndRedisIsLeftAloneForAWhile() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address());
                RedisResponseCache cache = cache("redis://127.0.0.1:" + proxy.port())) {
            await(cache.put("k", bytes("before"), Optional.of(Duration.ofSeconds(30))));
            assertThat(await(cache.get("k"))).isPresent();

            proxy.stop();
            assertThat(await(cache.get("k"))).as("an outage is a miss, never a failure").isEmpty();
            long failed = cache.unavailable();
            assertThat(failed).isPositive();
            int connections = proxy.accepted();

            proxy.resume();
            millis.addAndGet(RedisResponseCache.FIRST_PAUSE_MS - 1);
            assertThat(await(cache.get("k"))).as("still paused: Redis is not asked").isEmpty();
            assertThat(proxy.accepted()).isEqualTo(connections);

            millis.addAndGet(1);
            assertThat(await(cache.get("k")).map(RedisResponseCacheTest::text)).as("asked again once the pause is over")
                    .hasValue("before");
            assertThat(cache.unavailable()).isEqualTo(failed + 1);
        }
    }

    @Test
    void aBurstOfReadsIsServedWithoutTakingRedisForDown() throws Exception {
        try (RedisResponseCache cache = cache(TestRedis.url())) {
            await(cache.put("burst", bytes("entry"), Optional.of(Duration.ofSeconds(30))));
            List<Future<Optional<byte[]>>> reads = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                reads.add(cache.get("burst"));
            }
            for (Future<Optional<byte[]>> read : reads) {
                assertThat(await(read)).isPresent();
            }
            assertThat(cache.unavailable()).isZero();
        }
    }

    private RedisResponseCache cache(String url) {
        return new RedisResponseCache(RedisAddress.ofUrl(url), prefix, Duration.ofSeconds(2), millis::get);
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
