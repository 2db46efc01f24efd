package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.router.RouterEvents;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * Keys the store does not hold, presented to a gateway on PostgreSQL: they cost the database
 * a bounded number of reads, whatever their number, and never stop a key already in use.
 */
class UnknownKeysTest {
    private static final String MASTER = "sk-1234";
    private static final String KEY_READS = "sluice_key_store_reads_total";

    private static String config(MockUpstream upstream, TestDatabase store, String extra) {
        return """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                general_settings:
                  master_key: %s
                  %s
                  %s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting(), extra);
    }

    @Test
    void anAddressTryingMadeUpKeysIsSlowedDownWithoutReadingTheStoreAndKeysInUseKeepWorking() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = slowTicking(config(upstream, store,
                        "auth_failure_limit: 20\n  auth_failure_window_seconds: 600"))) {
            String inUse = generate(gateway);
            assertThat(call(gateway, inUse).statusCode()).isEqualTo(200);
            double readsBefore = gateway.metric(KEY_READS);

            int refused = 0;
            int throttled = 0;
            for (int i = 0; i < 1000; i++) {
                HttpResponse<String> answer = call(gateway, "sk-made-up-" + (i % 100));
                if (answer.statusCode() == 429) {
                    throttled++;
                    assertThat(answer.headers().firstValue("Retry-After")).isPresent();
                    assertThat(Json.parse(answer.body().getBytes()).path("error").path("code").asText())
                            .isEqualTo("too_many_failed_authentications");
                } else {
                    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
                    refused++;
                }
            }
            assertThat(refused).as("answered 401 before the limit: the first 20 unknown keys").isEqualTo(20);
            assertThat(throttled).isEqualTo(980);
            assertThat(gateway.metric(KEY_READS) - readsBefore).as("database reads for 1,000 made-up keys").isEqualTo(20);
            assertThat(call(gateway, inUse).statusCode()).as("a key in use, from the same address").isEqualTo(200);
        }
    }

    @Test
    void unknownKeysAreRememberedAndManyCallsWithOneFreshKeyReadTheStoreOnce() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = slowTicking(config(upstream, store, "auth_failure_limit: 0"))) {
            double before = gateway.metric(KEY_READS);
            for (int i = 0; i < 1000; i++) {
                assertThat(call(gateway, "sk-made-up-" + (i % 100)).statusCode()).isEqualTo(401);
            }
            assertThat(gateway.metric(KEY_READS) - before).as("one read per unknown key, then remembered")
                    .isLessThanOrEqualTo(100);

            String fresh = generate(gateway);
            double beforeFresh = gateway.metric(KEY_READS);
            ConcurrentLinkedQueue<Integer> statuses = new ConcurrentLinkedQueue<>();
            Concurrently.run(50, i -> statuses.add(call(gateway, fresh).statusCode()));
            assertThat(statuses).containsOnly(200);
            assertThat(gateway.metric(KEY_READS) - beforeFresh).as("50 calls at once with one fresh key").isEqualTo(1);
        }
    }

    @Test
    void aKeyRememberedAsUnknownWorksOnItsNextCallOnceGeneratedHere() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, store, ""))) {
            String chosen = "sk-chosen-" + System.nanoTime();
            assertThat(call(gateway, chosen).statusCode()).as("unknown, and remembered so").isEqualTo(401);
            HttpResponse<String> generated = gateway.post("/key/generate", "{\"key\": \"" + chosen + "\"}",
                    "Authorization", "Bearer " + MASTER);
            assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
            assertThat(call(gateway, chosen).statusCode()).isEqualTo(200);
        }
    }

    /**
     * A gateway whose ticker runs at a twentieth of real time: a thousand calls a loaded machine
     * stretches past the key cache's 5 s would otherwise see entries go stale and read the store
     * again, which is the cache working, not what these tests count.
     */
    private static TestGateway slowTicking(String yaml) {
        return TestGateway.start(yaml, Map.of(), RouterEvents.NONE, new TimeSource(Clock.systemUTC(), () -> System.nanoTime() / 20));
    }

    private static String generate(TestGateway gateway) throws Exception {
        HttpResponse<String> generated = gateway.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes()).path("key").asText();
    }

    private static HttpResponse<String> call(TestGateway gateway, String key) {
        return gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "Authorization", "Bearer " + key);
    }
}
