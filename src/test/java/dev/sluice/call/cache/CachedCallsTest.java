package dev.sluice.call.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.router.RouterEvents;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.MovableTicker;
import dev.sluice.testing.TestGateway;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The in-memory response cache on the call path, over real HTTP on both sides: a repeated
 * call is answered from the cache without reaching the upstream, every per-request control
 * does what LiteLLM's documentation says, a stream's hit is replayed as the stream, and what
 * failed or broke off is never stored.
 */
class CachedCallsTest {
    private static final String CHAT = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]%s}";

    private static String config(MockUpstream upstream, String cacheParams) {
        return """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                  - {model_name: e, litellm_params: {model: openai/e, api_base: %s}, model_info: {id: e}}
                router_settings: {num_retries: 0}
                litellm_settings:
                  cache: true
                  cache_params: {type: local%s}
                """.formatted(upstream.baseUrl(), upstream.baseUrl(), cacheParams);
    }

    @Test
    void aRepeatedCallIsAnsweredFromTheCacheForNothing() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ""))) {
            HttpResponse<String> first = chat(gateway, "hello", "");
            HttpResponse<String> second = chat(gateway, "hello", "");

            assertThat(upstream.requests()).isEqualTo(1);
            assertThat(second.statusCode()).isEqualTo(200);
            assertThat(second.body()).isEqualTo(first.body());
            String key = first.headers().firstValue("x-sluice-cache-key").orElseThrow();
            assertThat(key).matches("[0-9a-f]{64}");
            assertThat(first.headers().firstValue("x-litellm-cache-key")).as("LiteLLM sends it on a hit only").isEmpty();
            assertThat(second.headers().firstValue("x-litellm-cache-key")).hasValue(key);
            assertThat(second.headers().firstValue("x-sluice-cache-key")).hasValue(key);
            assertThat(second.headers().firstValue("x-litellm-response-cost")).hasValue("0.0");
            assertThat(second.headers().firstValue("x-litellm-model-group")).hasValue("g");
            assertThat(second.headers().firstValue("x-litellm-model-id")).as("no deployment answered").isEmpty();
            assertThat(second.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
            assertThat(chat(gateway, "something else", "").headers().firstValue("x-litellm-cache-key")).isEmpty();
            assertThat(upstream.requests()).isEqualTo(2);
            gateway.awaitMetric("a hit counted", "sluice_cache_lookups_total{cache_type=\"local\",result=\"hit\"}", 1);
        }
    }

    @Test
    void noCacheSkipsTheReadButStoresTheFreshAnswer() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ""))) {
            chat(gateway, "hello", "");
            HttpResponse<String> fresh = chat(gateway, "hello", ",\"cache\":{\"no-cache\":true}");
            HttpResponse<String> after = chat(gateway, "hello", "");

            assertThat(upstream.requests()).isEqualTo(2);
            assertThat(fresh.headers().firstValue("x-litellm-cache-key")).isEmpty();
            assertThat(after.body()).as("the fresh answer replaced the first").isEqualTo(fresh.body());
        }
    }

    @Test
    void noStoreLeavesTheCacheAsItWas() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ""))) {
            chat(gateway, "hello", ",\"cache\":{\"no-store\":true}");
            HttpResponse<String> next = chat(gateway, "hello", "");

            assertThat(upstream.requests()).isEqualTo(2);
            assertThat(next.headers().firstValue("x-litellm-cache-key")).isEmpty();
        }
    }

    @Test
    void sMaxAgeTakesOnlyAYoungEnoughEntryAndTtlEndsAnEntry() {
        FakeClock clock = new FakeClock();
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ""), Map.of(), RouterEvents.NONE, clock)) {
            chat(gateway, "hello", "");
            clock.advance(Duration.ofSeconds(10));

            assertThat(hit(chat(gateway, "hello", ",\"cache\":{\"s-maxage\":10}"))).isTrue();
            assertThat(hit(chat(gateway, "hello", ",\"cache\":{\"s-maxage\":9}"))).isFalse();
            assertThat(upstream.requests()).isEqualTo(2);
        }
    }

    @Test
    void anEntryLivesForItsTtlAndNoLonger() {
        MovableTicker ticker = new MovableTicker();
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ""), Map.of(), RouterEvents.NONE,
                        new TimeSource(new FakeClock(), ticker))) {
            chat(gateway, "short-lived", ",\"cache\":{\"ttl\":60}");
            // The ticker runs with real time too: half the ttl is left for the calls in between,
            // which a loaded machine can slow by seconds.
            ticker.advance(Duration.ofSeconds(30));
            assertThat(hit(chat(gateway, "short-lived", ""))).as("within its ttl").isTrue();
            ticker.advance(Duration.ofSeconds(30));
            assertThat(hit(chat(gateway, "short-lived", ""))).as("past its ttl").isFalse();
            assertThat(upstream.requests()).isEqualTo(2);
        }
    }

    @Test
    void aNamespaceKeepsItsOwnEntries() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ", namespace: conf"))) {
            HttpResponse<String> configured = chat(gateway, "hello", "");
            HttpResponse<String> own = chat(gateway, "hello", ",\"cache\":{\"namespace\":\"mine\"}");

            assertThat(configured.headers().firstValue("x-sluice-cache-key")).hasValueSatisfying(k -> assertThat(k).startsWith("conf:"));
            assertThat(own.headers().firstValue("x-sluice-cache-key")).hasValueSatisfying(k -> assertThat(k).startsWith("mine:"));
            assertThat(hit(own)).isFalse();
            assertThat(hit(chat(gateway, "hello", ",\"cache\":{\"namespace\":\"mine\"}"))).isTrue();
            assertThat(upstream.requests()).isEqualTo(2);
        }
    }

    @Test
    void withDefaultOffOnlyACallThatAsksIsCached() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ", mode: default_off"))) {
            HttpResponse<String> plain = chat(gateway, "hello", "");
            chat(gateway, "hello", "");
            assertThat(plain.headers().firstValue("x-sluice-cache-key")).isEmpty();
            assertThat(upstream.requests()).isEqualTo(2);

            chat(gateway, "hello", ",\"cache\":{\"use-cache\":true}");
            assertThat(hit(chat(gateway, "hello", ",\"cache\":{\"use-cache\":true}"))).isTrue();
            assertThat(upstream.requests()).isEqualTo(3);
        }
    }

    @Test
    void aStreamsHitIsReplayedAsTheStreamItWas() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ""))) {
            HttpResponse<String> first = chat(gateway, "stream me", ",\"stream\":true");
            HttpResponse<String> second = chat(gateway, "stream me", ",\"stream\":true");

            assertThat(upstream.requests()).isEqualTo(1);
            assertThat(hit(second)).isTrue();
            assertThat(second.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
            assertThat(second.body()).isEqualTo(first.body()).contains("data: [DONE]");
            assertThat(hit(chat(gateway, "stream me", ""))).as("a whole answer is another entry").isFalse();
        }
    }

    @Test
    void aFailedAnswerOrACutStreamIsNeverStored() {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("up", MockMode.FAIL));
                TestGateway gateway = TestGateway.start(config(failing, ""))) {
            assertThat(chat(gateway, "hello", "").statusCode()).isEqualTo(500);
            assertThat(chat(gateway, "hello", "").statusCode()).isEqualTo(500);
            assertThat(failing.requests()).isEqualTo(2);
        }
        try (MockUpstream cut = MockUpstream.start(MockOptions.defaults("up", MockMode.CUT));
                TestGateway gateway = TestGateway.start(config(cut, ""))) {
            HttpResponse<String> broken = chat(gateway, "hello", ",\"stream\":true");
            assertThat(broken.body()).contains("stream_interrupted").doesNotContain("[DONE]");
            assertThat(hit(chat(gateway, "hello", ",\"stream\":true"))).isFalse();
            assertThat(cut.requests()).isEqualTo(2);
        }
    }

    @Test
    void aGuardrailTheCallerNamesIsNotPassedOverByAnEntryStoredWithoutIt() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, "") + """
                        guardrails:
                          - guardrail_name: no-swordfish
                            litellm_params: {guardrail: litellm_content_filter, mode: [pre_call, post_call], blocked_words: [swordfish]}
                        """)) {
            assertThat(chat(gateway, "the word is swordfish", "").statusCode()).as("no guardrail named").isEqualTo(200);

            HttpResponse<String> guarded = chat(gateway, "the word is swordfish", ",\"guardrails\":[\"no-swordfish\"]");

            assertThat(guarded.statusCode()).as(guarded.body()).isEqualTo(400);
            assertThat(guarded.body()).contains("guardrail_refused");
            assertThat(hit(guarded)).isFalse();
            assertThat(upstream.requests()).isEqualTo(1);
            assertThat(hit(chat(gateway, "the word is swordfish", ""))).as("the entry without it").isTrue();
        }
    }

    @Test
    void aFallbackGroupsAnswerIsNotStoredUnderTheRequestedGroupsKey() {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream fallback = MockUpstream.start(MockOptions.defaults("fallback", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: h, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: b}}
                        router_settings: {num_retries: 0, fallbacks: [{g: [h]}]}
                        litellm_settings: {cache: true, cache_params: {type: local}}
                        """.formatted(failing.baseUrl(), fallback.baseUrl()))) {
            HttpResponse<String> first = chat(gateway, "hello", "");
            HttpResponse<String> second = chat(gateway, "hello", "");

            assertThat(first.headers().firstValue("x-litellm-model-group")).hasValue("h");
            assertThat(hit(second)).as("once g serves again, its callers get its own answers").isFalse();
            assertThat(fallback.requests()).isEqualTo(2);
            assertThat(hit(gateway.post("/v1/chat/completions", CHAT.formatted("hello", "").replace("\"g\"", "\"h\""))))
                    .as("nor under the fallback group's: only a call to h stores h's answers").isFalse();
        }
    }

    @Test
    void embeddingsAreCachedAndAMalformedControlIsA400() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(upstream, ""))) {
            String embed = "{\"model\":\"e\",\"input\":\"vectors please\"}";
            gateway.post("/v1/embeddings", embed);
            assertThat(hit(gateway.post("/v1/embeddings", embed))).isTrue();
            assertThat(upstream.requests()).isEqualTo(1);

            HttpResponse<String> bad = chat(gateway, "hello", ",\"cache\":{\"ttl\":\"long\"}");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("invalid_type").contains("cache.ttl");
            assertThat(upstream.requests()).isEqualTo(1);
        }
    }

    private static HttpResponse<String> chat(TestGateway gateway, String message, String extra) {
        return gateway.post("/v1/chat/completions", CHAT.formatted(message, extra));
    }

    private static boolean hit(HttpResponse<String> response) {
        return response.headers().firstValue("x-litellm-cache-key").isPresent();
    }
}
