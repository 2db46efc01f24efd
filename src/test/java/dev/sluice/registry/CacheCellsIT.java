package dev.sluice.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live cells of the response cache ({@code litellm_settings.cache}): an answer stored
 * through one replica is a hit through the other, whole or streamed, each per-request control
 * holds across replicas, and a cut of the cache's Redis costs calls nothing but the cache.
 *
 * <p>The replicas started for the class keep the cache in the Redis the router shares, under
 * the pair's key prefix. Their one deployment is a mock that answers each call under a fresh id
 * ({@code chatcmpl-mock-N}), so an answer that went upstream never equals a stored one, and its
 * request count tells a hit (unchanged) from a miss (one more). Each test asks with a prompt of
 * its own, so no test sees another's entries. The Redis-loss cell starts a pair of its own,
 * whose cache has a Redis of its own behind a TCP proxy, so that cutting it leaves the router's
 * shared state alone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CacheCellsIT {
    private static final String CHAT = "/v1/chat/completions";
    private static final String GROUP = "cached";
    private static final String UNAVAILABLE = "sluice_cache_unavailable_total";
    /**
     * The cut cell's {@code cache_params.socket_timeout}, above the default of 1 s: a cut is
     * noticed from the closed connection, not the timeout, and a call that waited on it anyway
     * would take these 4 s, well apart from what a busy machine makes of a prompt call.
     */
    private static final int CUT_SOCKET_TIMEOUT_SECONDS = 4;
    private static final Duration PROMPT = Duration.ofSeconds(2);

    /** Closed once every test has run: its replicas and mock stopped, its Redis keys deleted. */
    @AutoClose
    private final ReplicaPair pair = new ReplicaPair();
    private GatewayProcess a;
    private GatewayProcess b;
    private MockUpstream upstream;

    @BeforeAll
    void startReplicas(@TempDir Path folder) {
        upstream = pair.mock(MockOptions.defaults(GROUP, MockMode.OK));
        pair.start(folder, pair.deployment(GROUP, GROUP, GROUP, ""), """
                litellm_settings:
                  cache: true
                  cache_params: {type: redis}
                """, "");
        a = pair.a();
        b = pair.b();
    }

    @Test
    void anAnswerServedThroughOneReplicaIsAHitThroughTheOther() {
        String body = chat("exact hit", "");

        HttpResponse<String> first = miss(a, upstream, body);
        HttpResponse<String> again = hit(b, upstream, body);

        assertThat(again.body()).as("the answer as a first wrote it").isEqualTo(first.body());
        assertThat(again.headers().firstValue("x-litellm-cache-key")).as("the hit's key, as a named it")
                .isEqualTo(first.headers().firstValue("x-sluice-cache-key"));
        assertThat(again.headers().firstValue("x-litellm-response-cost")).hasValue("0.0");
        assertThat(again.headers().firstValue("x-litellm-model-group")).hasValue(GROUP);
        assertThat(again.headers().firstValue("x-litellm-model-id")).as("no deployment answered").isEmpty();
    }

    @Test
    void aStreamStoredThroughOneReplicaIsReplayedAsAStreamThroughTheOther() {
        String streamed = chat("streamed", ", \"stream\": true");

        HttpResponse<String> first = miss(a, upstream, streamed);
        HttpResponse<String> replayed = hit(b, upstream, streamed);

        assertThat(replayed.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/event-stream"));
        assertThat(replayed.body().strip()).endsWith("data: [DONE]");
        assertThat(replayed.body()).as("the stream as a's caller got it").isEqualTo(first.body());
        miss(b, upstream, chat("streamed", ""));  // the same prompt asked whole is an entry of its own
    }

    @Test
    void noCacheGoesUpstreamAndItsAnswerReplacesTheEntry() {
        HttpResponse<String> first = miss(a, upstream, chat("no-cache", ""));

        HttpResponse<String> fresh = miss(b, upstream, chat("no-cache", ", \"cache\": {\"no-cache\": true}"));
        assertThat(fresh.body()).as("a fresh answer, not the stored one").isNotEqualTo(first.body());

        assertThat(hit(a, upstream, chat("no-cache", "")).body()).as("the entry now").isEqualTo(fresh.body());
    }

    @Test
    void noStoreLeavesNothingStored() {
        miss(a, upstream, chat("no-store", ", \"cache\": {\"no-store\": true}"));

        HttpResponse<String> stored = miss(b, upstream, chat("no-store", ""));

        assertThat(hit(a, upstream, chat("no-store", "")).body()).isEqualTo(stored.body());
    }

    @Test
    void anEntryWithATtlIsGoneOnceItLapses() {
        HttpResponse<String> first = miss(a, upstream, chat("ttl", ", \"cache\": {\"ttl\": 1}"));
        String key = pair.redisPrefix() + "cache:" + first.headers().firstValue("x-sluice-cache-key").orElseThrow();
        long life = Long.parseLong(TestRedis.command("PTTL", key));
        // -2: gone already, on a machine slow enough to take a second between the two.
        assertThat(life).as("milliseconds the entry has left").satisfiesAnyOf(
                ms -> assertThat(ms).isEqualTo(-2), ms -> assertThat(ms).isBetween(1L, 1_000L));

        int before = upstream.requests();
        String probe = chat("ttl", ", \"cache\": {\"no-store\": true}");
        HttpResponse<String> missed = Eventually.value("b misses the entry once its ttl has lapsed", Duration.ofSeconds(15),
                () -> Optional.of(ask(b, probe)).filter(answer -> answer.headers().firstValue("x-litellm-cache-key").isEmpty()));

        assertThat(missed.statusCode()).as(missed.body()).isEqualTo(200);
        assertThat(upstream.requests()).as("only the miss went upstream").isEqualTo(before + 1);
        assertThat(missed.body()).isNotEqualTo(first.body());
    }

    @Test
    void anEntryOlderThanSMaxAgeIsAMiss() throws InterruptedException {
        HttpResponse<String> first = miss(a, upstream, chat("s-maxage", ""));
        assertThat(hit(b, upstream, chat("s-maxage", ", \"cache\": {\"s-maxage\": 60}")).body()).isEqualTo(first.body());

        // A real wait: what is tested is an age, and there is nothing to poll for it to pass.
        Thread.sleep(20);
        HttpResponse<String> fresh = miss(b, upstream, chat("s-maxage", ", \"cache\": {\"s-maxage\": 0}"));

        assertThat(hit(a, upstream, chat("s-maxage", "")).body()).as("the fresh answer replaced the entry")
                .isEqualTo(fresh.body());
    }

    @Test
    void anotherNamespaceIsAMissThenAHit() {
        String namespaced = chat("namespace", ", \"cache\": {\"namespace\": \"cells\"}");
        HttpResponse<String> plain = miss(a, upstream, chat("namespace", ""));

        HttpResponse<String> first = miss(b, upstream, namespaced);
        assertThat(first.headers().firstValue("x-sluice-cache-key")).hasValueSatisfying(
                key -> assertThat(key).startsWith("cells:"));

        assertThat(hit(a, upstream, namespaced).body()).isEqualTo(first.body());
        assertThat(hit(b, upstream, chat("namespace", "")).body()).as("the entry outside the namespace").isEqualTo(plain.body());
    }

    @Test
    void withTheCachesRedisCutBothReplicasAnswerAsMissesAndItHitsAgainOnceBack(@TempDir Path folder) {
        try (TcpProxy redis = TcpProxy.to(TestRedis.address()); ReplicaPair cut = new ReplicaPair()) {
            MockUpstream mock = cut.mock(MockOptions.defaults(GROUP, MockMode.OK));
            cut.start(folder, cut.deployment(GROUP, GROUP, GROUP, ""), """
                    litellm_settings:
                      cache: true
                      cache_params: {type: redis, host: 127.0.0.1, port: %d, socket_timeout: %d}
                    """.formatted(redis.port(), CUT_SOCKET_TIMEOUT_SECONDS), "");
            List<GatewayProcess> replicas = List.of(cut.a(), cut.b());
            String body = chat("redis cut", "");
            miss(cut.a(), mock, body);
            hit(cut.b(), mock, body);

            double[] unavailable = replicas.stream().mapToDouble(replica -> replica.metric(UNAVAILABLE)).toArray();
            redis.stop();
            int calls = 4;
            for (int i = 0; i < calls; i++) {
                for (GatewayProcess replica : replicas) {
                    missedPromptly(replica, mock, body);
                }
            }
            for (int i = 0; i < replicas.size(); i++) {
                assertThat(replicas.get(i).metric(UNAVAILABLE)).as("%s: %s, a read of each call at least", replicas.get(i),
                        UNAVAILABLE).isGreaterThanOrEqualTo(unavailable[i] + calls);
            }

            redis.resume();
            for (GatewayProcess replica : replicas) {
                Eventually.until(replica + " reads the cache again", Duration.ofSeconds(30),
                        () -> ask(replica, body).headers().firstValue("x-litellm-cache-key").isPresent());
            }
            unavailable = replicas.stream().mapToDouble(replica -> replica.metric(UNAVAILABLE)).toArray();
            String after = chat("redis back", "");
            HttpResponse<String> stored = miss(cut.a(), mock, after);
            assertThat(hit(cut.b(), mock, after).body()).isEqualTo(stored.body());
            assertThat(replicas.stream().mapToDouble(replica -> replica.metric(UNAVAILABLE)).toArray())
                    .as("%s once Redis is back", UNAVAILABLE).containsExactly(unavailable);
        }
    }

    /** A call through {@code replica} answered within {@link #PROMPT} by {@code mock}, not the cache. */
    private static void missedPromptly(GatewayProcess replica, MockUpstream mock, String body) {
        int before = mock.requests();
        long start = System.nanoTime();
        HttpResponse<String> answer = replica.send(HttpRequest.newBuilder(replica.uri(CHAT))
                .timeout(Duration.ofSeconds(CUT_SOCKET_TIMEOUT_SECONDS * 3))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(answer.statusCode()).as("%s with the cache's Redis cut: %s", replica, answer.body()).isEqualTo(200);
        assertThat(took).as("%s answered in ms, with the cache's Redis cut", replica).isLessThan(PROMPT.toMillis());
        assertThat(answer.headers().firstValue("x-litellm-cache-key")).as("%s: a hit with Redis cut", replica).isEmpty();
        assertThat(mock.requests()).as("%s: the call went upstream", replica).isEqualTo(before + 1);
    }

    /** A call through {@code replica} that the cache did not answer: {@code mock} answered it. */
    private static HttpResponse<String> miss(GatewayProcess replica, MockUpstream mock, String body) {
        int before = mock.requests();
        HttpResponse<String> answer = ask(replica, body);
        assertThat(answer.statusCode()).as("%s: %s", replica, answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-litellm-cache-key")).as("%s: a miss says no hit key", replica).isEmpty();
        assertThat(answer.headers().firstValue("x-sluice-cache-key")).as("%s: the cache key", replica).isPresent();
        assertThat(mock.requests()).as("%s: a miss goes upstream", replica).isEqualTo(before + 1);
        return answer;
    }

    /** A call through {@code replica} that the cache answered: {@code mock} was not called. */
    private static HttpResponse<String> hit(GatewayProcess replica, MockUpstream mock, String body) {
        int before = mock.requests();
        HttpResponse<String> answer = ask(replica, body);
        assertThat(answer.statusCode()).as("%s: %s", replica, answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-litellm-cache-key")).as("%s: a hit says its key", replica)
                .isPresent().isEqualTo(answer.headers().firstValue("x-sluice-cache-key"));
        assertThat(answer.headers().firstValue("x-litellm-response-cost")).as("%s: a hit's cost", replica).hasValue("0.0");
        assertThat(mock.requests()).as("%s: a hit goes nowhere upstream", replica).isEqualTo(before);
        return answer;
    }

    private static HttpResponse<String> ask(GatewayProcess replica, String body) {
        return replica.post(CHAT, body);
    }

    /** A chat body for the cached group; {@code extra} is more JSON members, each after a comma. */
    private static String chat(String prompt, String extra) {
        return ReplicaPair.chat(GROUP, "cache cell: " + prompt, extra);
    }
}
