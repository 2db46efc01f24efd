package dev.sluice.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.json.Json;
import dev.sluice.mock.MockMode;
import dev.sluice.mock.MockOptions;
import dev.sluice.mock.MockUpstream;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.Ports;
import dev.sluice.testing.TestRedis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live cells of the reliability registry ({@code src/test/resources/reliability/registry.tsv})
 * for retries, sibling failover, cooldowns, fallbacks, guardrails, deadlines and streams: two
 * replicas started once from the built jar, sharing the local Redis under a key prefix of their
 * own, in front of mock upstreams in this JVM that fail for real (500, 429 with Retry-After,
 * 401 to a bogus key, 404, 400, refusals of a long or forbidden prompt, answers later than
 * the deployment's timeout, a refused port, a cut stream, a hang).
 *
 * <p>Every cell has groups and upstreams of its own, so the cells share the two processes but
 * no state: a bench, a failure count or a request count in one cell is never seen by another.
 * First picks are deterministic: a primary has weight 1000 and its sibling weight 0 (a backup,
 * picked only when nothing else is left). Each test asserts what each upstream received and
 * the routing headers, so a router that stops retrying, failing over, benching or falling back
 * turns its cell red.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RouterCellsIT {
    /** Deployment timeout of the timing-out cells, in seconds; their slow mocks answer after 2 s. */
    private static final String SHORT_TIMEOUT = "0.4";
    /** Cooldown of the cooldown cells, in seconds. */
    private static final int BENCH_SECONDS = 2;

    private final String prefix = TestRedis.newPrefix();
    private final Map<String, MockUpstream> mocks = new LinkedHashMap<>();
    private GatewayProcess a;
    private GatewayProcess b;

    @BeforeAll
    void startReplicas(@TempDir Path folder) {
        mock("ok", MockOptions.defaults("ok", MockMode.OK));
        mock("retry-timeout", MockOptions.defaults("retry-timeout", MockMode.SLOW).withDelay(Duration.ofSeconds(1)).withTimes(1));
        mock("retry-server", MockOptions.defaults("retry-server", MockMode.FAIL).withTimes(1));
        mock("retry-429", MockOptions.defaults("retry-429", MockMode.RATELIMIT).withRetryAfterSeconds(1).withTimes(1));
        mock("retry-auth", MockOptions.defaults("retry-auth", MockMode.AUTH));
        mock("retry-auth-sibling", MockOptions.defaults("retry-auth-sibling", MockMode.OK));
        mock("failover-404", MockOptions.defaults("failover-404", MockMode.NOTFOUND));
        mock("failover-404-sibling", MockOptions.defaults("failover-404-sibling", MockMode.OK));
        mock("failover-400", MockOptions.defaults("failover-400", MockMode.REJECT));
        mock("failover-400-sibling", MockOptions.defaults("failover-400-sibling", MockMode.OK));
        for (String kind : List.of("server", "429", "auth", "timeout")) {
            mock("cooldown-" + kind + "-backup", MockOptions.defaults("cooldown-" + kind + "-backup", MockMode.OK));
        }
        mock("cooldown-server", MockOptions.defaults("cooldown-server", MockMode.FAIL));
        mock("cooldown-429", MockOptions.defaults("cooldown-429", MockMode.RATELIMIT).withRetryAfterSeconds(BENCH_SECONDS));
        mock("cooldown-auth", MockOptions.defaults("cooldown-auth", MockMode.AUTH));
        mock("cooldown-timeout", MockOptions.defaults("cooldown-timeout", MockMode.SLOW).withDelay(Duration.ofSeconds(2)));
        mock("fb-server", MockOptions.defaults("fb-server", MockMode.FAIL));
        mock("fb-server-target", MockOptions.defaults("fb-server-target", MockMode.OK));
        mock("fb-timeout", MockOptions.defaults("fb-timeout", MockMode.SLOW).withDelay(Duration.ofSeconds(2)));
        mock("fb-timeout-target", MockOptions.defaults("fb-timeout-target", MockMode.OK));
        mock("fb-context", MockOptions.defaults("fb-context", MockMode.CONTEXT).withMaxChars(40));
        mock("fb-context-target", MockOptions.defaults("fb-context-target", MockMode.OK));
        mock("fb-context-general", MockOptions.defaults("fb-context-general", MockMode.OK));
        mock("fb-policy", MockOptions.defaults("fb-policy", MockMode.POLICY).withTriggerWord("forbidden"));
        mock("fb-policy-sibling", MockOptions.defaults("fb-policy-sibling", MockMode.OK));
        mock("fb-policy-target", MockOptions.defaults("fb-policy-target", MockMode.OK));
        mock("fb-policy-general", MockOptions.defaults("fb-policy-general", MockMode.OK));
        mock("fb-default", MockOptions.defaults("fb-default", MockMode.FAIL));
        mock("fb-default-target", MockOptions.defaults("fb-default-target", MockMode.OK));
        mock("guarded", MockOptions.defaults("guarded", MockMode.OK));
        mock("guarded-sibling", MockOptions.defaults("guarded-sibling", MockMode.OK));
        mock("guarded-fallback", MockOptions.defaults("guarded-fallback", MockMode.OK));
        mock("hang", MockOptions.defaults("hang", MockMode.HANG));
        mock("hang-fallback", MockOptions.defaults("hang-fallback", MockMode.OK));
        mock("cut", MockOptions.defaults("cut", MockMode.CUT));
        mock("cut-sibling", MockOptions.defaults("cut-sibling", MockMode.OK));

        String yaml = "model_list:\n"
                + deployment("warm-up", "warm-up", "ok", "")
                + deployment("retry-timeout", "retry-timeout", "retry-timeout", "timeout: " + SHORT_TIMEOUT)
                + deployment("retry-server", "retry-server", "retry-server", "")
                + deployment("retry-429", "retry-429", "retry-429", "")
                + deployment("retry-auth", "retry-auth", "retry-auth", "api_key: bogus-key, weight: 1000")
                + deployment("retry-auth", "retry-auth-sibling", "retry-auth-sibling", "weight: 0")
                + deployment("retry-refused", "retry-refused", "http://127.0.0.1:" + Ports.refusing() + "/v1", "")
                + deployment("failover-404", "failover-404", "failover-404", "weight: 1000")
                + deployment("failover-404", "failover-404-sibling", "failover-404-sibling", "weight: 0")
                + deployment("failover-400", "failover-400", "failover-400", "weight: 1000")
                + deployment("failover-400", "failover-400-sibling", "failover-400-sibling", "weight: 0")
                + deployment("cooldown-server", "cooldown-server", "cooldown-server", "weight: 1000, cooldown_time: " + BENCH_SECONDS)
                + deployment("cooldown-server", "cooldown-server-backup", "cooldown-server-backup", "weight: 0")
                + deployment("cooldown-429", "cooldown-429", "cooldown-429", "weight: 1000, cooldown_time: " + BENCH_SECONDS)
                + deployment("cooldown-429", "cooldown-429-backup", "cooldown-429-backup", "weight: 0")
                + deployment("cooldown-auth", "cooldown-auth", "cooldown-auth",
                        "api_key: bogus-key, weight: 1000, cooldown_time: " + BENCH_SECONDS)
                + deployment("cooldown-auth", "cooldown-auth-backup", "cooldown-auth-backup", "weight: 0")
                + deployment("cooldown-timeout", "cooldown-timeout", "cooldown-timeout",
                        "timeout: " + SHORT_TIMEOUT + ", weight: 1000, cooldown_time: " + BENCH_SECONDS)
                + deployment("cooldown-timeout", "cooldown-timeout-backup", "cooldown-timeout-backup", "weight: 0")
                + deployment("fb-server", "fb-server", "fb-server", "")
                + deployment("fb-server-target", "fb-server-target", "fb-server-target", "")
                + deployment("fb-timeout", "fb-timeout", "fb-timeout", "timeout: " + SHORT_TIMEOUT)
                + deployment("fb-timeout-target", "fb-timeout-target", "fb-timeout-target", "")
                + deployment("fb-context", "fb-context", "fb-context", "")
                + deployment("fb-context-target", "fb-context-target", "fb-context-target", "")
                + deployment("fb-context-general", "fb-context-general", "fb-context-general", "")
                + deployment("fb-policy", "fb-policy", "fb-policy", "weight: 1000")
                + deployment("fb-policy", "fb-policy-sibling", "fb-policy-sibling", "weight: 0")
                + deployment("fb-policy-target", "fb-policy-target", "fb-policy-target", "")
                + deployment("fb-policy-general", "fb-policy-general", "fb-policy-general", "")
                + deployment("fb-default", "fb-default", "fb-default", "")
                + deployment("fb-default-target", "fb-default-target", "fb-default-target", "")
                + deployment("guarded", "guarded", "guarded", "weight: 1000, guardrails: [registry-block]")
                + deployment("guarded", "guarded-sibling", "guarded-sibling", "weight: 0")
                + deployment("guarded-fallback", "guarded-fallback", "guarded-fallback", "")
                + deployment("hang", "hang", "hang", "")
                + deployment("hang-fallback", "hang-fallback", "hang-fallback", "")
                + deployment("cut", "cut", "cut", "weight: 1000")
                + deployment("cut", "cut-sibling", "cut-sibling", "weight: 0")
                + """
                guardrails:
                  - guardrail_name: registry-block
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: pre_call
                      blocked_words: [zebracorn]
                router_settings:
                  allowed_fails: 0
                  cooldown_time: 30
                  fallbacks:
                    - fb-server: [fb-server-target]
                    - fb-timeout: [fb-timeout-target]
                    - fb-context: [fb-context-general]
                    - fb-policy: [fb-policy-general]
                    - guarded: [guarded-fallback]
                    - hang: [hang-fallback]
                  context_window_fallbacks:
                    - fb-context: [fb-context-target]
                  content_policy_fallbacks:
                    - fb-policy: [fb-policy-target]
                  default_fallbacks: [fb-default-target]
                  redis_host: %s
                  redis_port: %d
                  redis_key_prefix: "%s"
                """.formatted(TestRedis.HOST, TestRedis.PORT, prefix);
        List<GatewayProcess> replicas = GatewayProcess.startAll(yaml, folder, "a", "b");
        a = replicas.get(0);
        b = replicas.get(1);
        for (GatewayProcess replica : replicas) {
            Eventually.until(replica + " shares state through Redis", Duration.ofSeconds(5),
                    () -> readiness(replica).path("router_state").asText().equals("redis: connected"));
            HttpResponse<String> warm = replica.post("/v1/chat/completions", chat("warm-up", "hi", ""));
            assertThat(warm.statusCode()).as("%s warming up: %s", replica, warm.body()).isEqualTo(200);
        }
    }

    @AfterAll
    void stopReplicas() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        mocks.values().forEach(MockUpstream::close);
        TestRedis.deleteKeys(prefix);
    }

    // ---- retry ----

    @Test
    void retryOnTimeout() {
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("retry-timeout", "hi", ""));
        assertServed(answer, "retry-timeout", "retry-timeout", 1, 0);
        assertThat(requests("retry-timeout")).as("the timed-out attempt and its repeat").isEqualTo(2);
    }

    @Test
    void retryOnServerError() {
        HttpResponse<String> answer = b.post("/v1/chat/completions", chat("retry-server", "hi", ""));
        assertServed(answer, "retry-server", "retry-server", 1, 0);
        assertThat(requests("retry-server")).as("the 500 and its repeat").isEqualTo(2);
    }

    @Test
    void retryOnRateLimitAfterRetryAfter() {
        long start = System.nanoTime();
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("retry-429", "hi", ""));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertServed(answer, "retry-429", "retry-429", 1, 0);
        assertThat(requests("retry-429")).as("the 429 and its repeat").isEqualTo(2);
        assertThat(took).as("ms before the answer: the repeat waited for Retry-After: 1").isGreaterThanOrEqualTo(950);
    }

    @Test
    void retryOnAuthFailureGoesToTheSibling() {
        HttpResponse<String> answer = b.post("/v1/chat/completions", chat("retry-auth", "hi", ""));
        assertServed(answer, "retry-auth", "retry-auth-sibling", 1, 0);
        assertThat(requests("retry-auth")).as("the deployment with the bogus key is called once, not repeated").isEqualTo(1);
        assertThat(requests("retry-auth-sibling")).isEqualTo(1);
    }

    @Test
    void retryOnRefusedConnection() {
        HttpResponse<String> answer = a.post("/v1/chat/completions",
                chat("retry-refused", "hi", ", \"num_retries\": 2, \"disable_fallbacks\": true"));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(502);
        assertThat(errorCode(answer)).isEqualTo("upstream_unreachable");
        assertThat(answer.body()).contains("retry-refused");
        assertThat(answer.headers().firstValue("x-litellm-model-id")).hasValue("retry-refused");
        assertThat(answer.headers().firstValue("x-litellm-attempted-retries")).as("both retries were made").hasValue("2");
        assertThat(answer.headers().firstValue("x-litellm-attempted-fallbacks")).isEmpty();
    }

    // ---- sibling failover ----

    @Test
    void failoverOnNotFound() {
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("failover-404", "hi", ""));
        assertServed(answer, "failover-404", "failover-404-sibling", 1, 0);
        assertThat(requests("failover-404")).as("the 404 is not repeated").isEqualTo(1);
        assertThat(requests("failover-404-sibling")).isEqualTo(1);
    }

    @Test
    void failoverOnBadRequest() {
        HttpResponse<String> answer = b.post("/v1/chat/completions", chat("failover-400", "hi", ""));
        assertServed(answer, "failover-400", "failover-400-sibling", 1, 0);
        assertThat(requests("failover-400")).as("the 400 is not repeated").isEqualTo(1);
        assertThat(requests("failover-400-sibling")).isEqualTo(1);
    }

    // ---- cooldown: trip on a, honoured on b, ends ----

    @Test
    void cooldownOnServerErrorIsSharedAndEnds() {
        assertBenchIsSharedAndEnds("cooldown-server", MockMode.FAIL);
    }

    @Test
    void cooldownOnRateLimitIsSharedAndEnds() {
        assertBenchIsSharedAndEnds("cooldown-429", MockMode.RATELIMIT);
    }

    @Test
    void cooldownOnAuthFailureIsSharedAndEnds() {
        assertBenchIsSharedAndEnds("cooldown-auth", MockMode.AUTH);
    }

    @Test
    void cooldownOnTimeoutIsSharedAndEnds() {
        assertBenchIsSharedAndEnds("cooldown-timeout", MockMode.SLOW);
    }

    /**
     * One call through {@code a} fails on the primary (weight 1000) and is served by the
     * weight-0 backup; calls through {@code b} in the next second never reach the primary; once
     * healed, the primary gets traffic through {@code b} again, not before 1.5 s after the trip
     * (the bench is {@value #BENCH_SECONDS} s) and not later than 4 s after its end.
     */
    private void assertBenchIsSharedAndEnds(String group, MockMode failing) {
        MockUpstream primary = mocks.get(group);
        assertThat(primary.mode()).isEqualTo(failing);
        String backup = group + "-backup";

        HttpResponse<String> trip = a.post("/v1/chat/completions", chat(group, "hi", ""));
        long tripped = System.nanoTime();
        assertServed(trip, group, backup, 1, 0);
        assertThat(primary.requests()).as("a called the failing primary once, then failed over").isEqualTo(1);

        for (int i = 0; i < 3; i++) {
            HttpResponse<String> throughB = b.post("/v1/chat/completions", chat(group, "hi", ""));
            assertServed(throughB, group, backup, 0, 0);
        }
        assertThat(millisSince(tripped)).as("b's calls came within a second of the trip").isLessThan(1_000);
        assertThat(primary.requests()).as("b never called the primary a benched").isEqualTo(1);

        primary.setMode(MockMode.OK);
        long deadline = tripped + TimeUnit.SECONDS.toNanos(BENCH_SECONDS + 4);
        while (true) {
            long sent = System.nanoTime();
            HttpResponse<String> throughB = b.post("/v1/chat/completions", chat(group, "hi", ""));
            assertThat(throughB.statusCode()).as(throughB.body()).isEqualTo(200);
            String servedBy = throughB.headers().firstValue("x-litellm-model-id").orElse("(none)");
            if (servedBy.equals(group)) {
                assertThat(TimeUnit.NANOSECONDS.toMillis(sent - tripped))
                        .as("the primary took traffic again only once its %d s bench was nearly over", BENCH_SECONDS)
                        .isGreaterThanOrEqualTo(1_500);
                break;
            }
            assertThat(servedBy).isEqualTo(backup);
            assertThat(System.nanoTime() - deadline).as("the primary never took traffic again after its bench").isNegative();
            sleep(200);
        }
        assertThat(primary.requests()).as("the benched call, then the one after its bench").isEqualTo(2);
    }

    // ---- fallbacks ----

    @Test
    void fallbackOnServerError() {
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("fb-server", "hi", ", \"num_retries\": 0"));
        assertServed(answer, "fb-server-target", "fb-server-target", 0, 1);
        assertThat(requests("fb-server")).isEqualTo(1);
        assertThat(requests("fb-server-target")).isEqualTo(1);
    }

    @Test
    void fallbackOnTimeout() {
        HttpResponse<String> answer = b.post("/v1/chat/completions", chat("fb-timeout", "hi", ", \"num_retries\": 0"));
        assertServed(answer, "fb-timeout-target", "fb-timeout-target", 0, 1);
        assertThat(requests("fb-timeout")).isEqualTo(1);
        assertThat(requests("fb-timeout-target")).isEqualTo(1);
    }

    @Test
    void fallbackOnContextWindowTakesItsOwnList() {
        String longPrompt = "a prompt well over the forty characters this mock's window holds";
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("fb-context", longPrompt, ""));
        assertServed(answer, "fb-context-target", "fb-context-target", 0, 1);
        assertThat(requests("fb-context")).as("a context-window refusal is not repeated").isEqualTo(1);
        assertThat(requests("fb-context-general")).as("the general fallbacks are not used").isZero();
    }

    @Test
    void fallbackOnContentPolicyTakesItsOwnList() {
        HttpResponse<String> answer = b.post("/v1/chat/completions", chat("fb-policy", "say something forbidden", ""));
        assertServed(answer, "fb-policy-target", "fb-policy-target", 0, 1);
        assertThat(requests("fb-policy")).as("a content-policy refusal is not repeated").isEqualTo(1);
        assertThat(requests("fb-policy-sibling")).as("nor sent to a sibling").isZero();
        assertThat(requests("fb-policy-general")).as("the general fallbacks are not used").isZero();
    }

    @Test
    void fallbackToDefaultFallbacks() {
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("fb-default", "hi", ", \"num_retries\": 0"));
        assertServed(answer, "fb-default-target", "fb-default-target", 0, 1);
        assertThat(requests("fb-default")).isEqualTo(1);
        assertThat(requests("fb-default-target")).isEqualTo(1);
    }

    // ---- guardrail, deadline, stream ----

    @Test
    void guardrailRefusalIsNeverForwarded() {
        HttpResponse<String> answer = b.post("/v1/chat/completions", chat("guarded", "tell me about the zebracorn", ""));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        assertThat(errorCode(answer)).isEqualTo("guardrail_refused");
        assertThat(requests("guarded")).as("the guarded deployment").isZero();
        assertThat(requests("guarded-sibling")).as("its unguarded sibling").isZero();
        assertThat(requests("guarded-fallback")).as("the group's fallback").isZero();
    }

    @Test
    void requestTimeoutBoundsAHangingUpstream() {
        long start = System.nanoTime();
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("hang", "hi", ", \"timeout\": 1"));
        long took = millisSince(start);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(408);
        assertThat(errorCode(answer)).isEqualTo("upstream_timeout");
        assertThat(took).as("ms before the answer to a request with timeout 1").isBetween(900L, 2_000L);
        assertThat(requests("hang")).as("no repeat fits the deadline").isEqualTo(1);
        assertThat(requests("hang-fallback")).as("no fallback is tried once the deadline is out").isZero();
    }

    @Test
    void streamCutMidwayEndsWithAnErrorAndIsNotRetried() {
        HttpResponse<String> answer = b.post("/v1/chat/completions",
                "{\"model\":\"cut\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-litellm-model-id")).hasValue("cut");
        assertThat(answer.body()).as("the stream's events so far, then an error event").contains("data: {\"error\"")
                .doesNotContain("[DONE]");
        assertThat(requests("cut")).isEqualTo(1);
        assertThat(requests("cut-sibling")).as("no silent retry elsewhere once events were sent").isZero();
    }

    // ---- helpers ----

    private void mock(String name, MockOptions options) {
        mocks.put(name, MockUpstream.start(options));
    }

    private int requests(String mock) {
        return mocks.get(mock).requests();
    }

    /** One {@code model_list} entry; {@code upstream} is a mock's name or a base URL. */
    private String deployment(String group, String id, String upstream, String params) {
        String base = upstream.startsWith("http") ? upstream : mocks.get(upstream).baseUrl();
        return "  - {model_name: %s, litellm_params: {model: openai/%s, api_base: %s%s}, model_info: {id: %s}}\n"
                .formatted(group, id, base, params.isEmpty() ? "" : ", " + params, id);
    }

    /** A chat body for {@code group}; {@code extra} is more JSON members, each after a comma. */
    private static String chat(String group, String prompt, String extra) {
        return "{\"model\":\"" + group + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]" + extra + "}";
    }

    private static void assertServed(HttpResponse<String> answer, String group, String deployment, int retries, int fallbacks) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-litellm-model-id")).as("served by").hasValue(deployment);
        assertThat(answer.headers().firstValue("x-litellm-model-group")).as("group served").hasValue(group);
        assertThat(answer.headers().firstValue("x-litellm-attempted-retries")).as("retries").hasValue(String.valueOf(retries));
        assertThat(answer.headers().firstValue("x-litellm-attempted-fallbacks")).as("fallbacks").hasValue(String.valueOf(fallbacks));
        assertThat(answer.body()).contains("[" + deployment + "]");
    }

    private static String errorCode(HttpResponse<String> answer) {
        return parse(answer.body()).path("error").path("code").asText();
    }

    private static JsonNode readiness(GatewayProcess replica) {
        return parse(replica.get("/health/readiness").body());
    }

    private static JsonNode parse(String body) {
        try {
            return Json.parse(body.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
