package dev.sluice.registry;

import static dev.sluice.registry.ReplicaPair.assertServed;
import static dev.sluice.registry.ReplicaPair.chat;
import static dev.sluice.registry.ReplicaPair.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.MetricSamples;
import dev.sluice.testing.Ports;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
 * <p>Every cell has groups and primaries of its own, so a bench or a failure count in one cell
 * is never seen by another. Two upstreams are shared as places a request must not reach: the
 * default fallback's target ({@code default_fallbacks} applies to every group without a
 * fallbacks entry) and the cut stream's sibling; a cell that asserts they were not called
 * compares their counts before and after.
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
    private static final int BENCH_SECONDS = 5;
    /** The 429 cell's Retry-After, in seconds: longer than its deployment's 1 s cooldown_time, so only honouring it passes. */
    private static final int RETRY_AFTER_SECONDS = 6;

    private final ReplicaPair pair = new ReplicaPair();
    private GatewayProcess a;
    private GatewayProcess b;
    /** Sends a stream's first event at once, then nothing for 2 s. */
    private ScriptedUpstream holding;

    @BeforeAll
    void startReplicas(@TempDir Path folder) {
        pair.mock(MockOptions.defaults("retry-timeout", MockMode.SLOW).withDelay(Duration.ofSeconds(1)).withTimes(1));
        pair.mock(MockOptions.defaults("retry-server", MockMode.FAIL).withTimes(1));
        pair.mock(MockOptions.defaults("retry-429", MockMode.RATELIMIT).withRetryAfterSeconds(1).withTimes(1));
        pair.mock(MockOptions.defaults("retry-auth", MockMode.AUTH));
        pair.mock(MockOptions.defaults("retry-auth-sibling", MockMode.OK));
        pair.mock(MockOptions.defaults("failover-404", MockMode.NOTFOUND));
        pair.mock(MockOptions.defaults("failover-404-sibling", MockMode.OK));
        pair.mock(MockOptions.defaults("failover-400", MockMode.REJECT));
        pair.mock(MockOptions.defaults("failover-400-sibling", MockMode.OK));
        pair.mock(MockOptions.defaults("refused-400", MockMode.REJECT));
        pair.mock(MockOptions.defaults("refused-400-sibling", MockMode.FAIL));
        for (String kind : List.of("server", "429", "auth", "timeout")) {
            pair.mock(MockOptions.defaults("cooldown-" + kind + "-backup", MockMode.OK));
        }
        pair.mock(MockOptions.defaults("cooldown-server", MockMode.FAIL));
        pair.mock(MockOptions.defaults("cooldown-429", MockMode.RATELIMIT).withRetryAfterSeconds(RETRY_AFTER_SECONDS));
        pair.mock(MockOptions.defaults("cooldown-auth", MockMode.AUTH));
        pair.mock(MockOptions.defaults("cooldown-timeout", MockMode.SLOW).withDelay(Duration.ofSeconds(2)));
        pair.mock(MockOptions.defaults("fb-server", MockMode.FAIL));
        pair.mock(MockOptions.defaults("fb-server-target", MockMode.OK));
        pair.mock(MockOptions.defaults("fb-timeout", MockMode.SLOW).withDelay(Duration.ofSeconds(2)));
        pair.mock(MockOptions.defaults("fb-timeout-target", MockMode.OK));
        pair.mock(MockOptions.defaults("fb-context", MockMode.CONTEXT).withMaxChars(40));
        pair.mock(MockOptions.defaults("fb-context-target", MockMode.OK));
        pair.mock(MockOptions.defaults("fb-context-general", MockMode.OK));
        pair.mock(MockOptions.defaults("fb-policy", MockMode.POLICY).withTriggerWord("forbidden"));
        pair.mock(MockOptions.defaults("fb-policy-sibling", MockMode.OK));
        pair.mock(MockOptions.defaults("fb-policy-target", MockMode.OK));
        pair.mock(MockOptions.defaults("fb-policy-general", MockMode.OK));
        pair.mock(MockOptions.defaults("fb-default", MockMode.FAIL));
        pair.mock(MockOptions.defaults("fb-default-target", MockMode.OK));
        pair.mock(MockOptions.defaults("guarded", MockMode.OK));
        pair.mock(MockOptions.defaults("guarded-sibling", MockMode.OK));
        pair.mock(MockOptions.defaults("guarded-fallback", MockMode.OK));
        pair.mock(MockOptions.defaults("hang", MockMode.HANG));
        pair.mock(MockOptions.defaults("hang-fallback", MockMode.OK));
        pair.mock(MockOptions.defaults("cut", MockMode.CUT));
        pair.mock(MockOptions.defaults("cut-sibling", MockMode.OK));

        holding = ScriptedUpstream.always("stream-gap", ScriptedUpstream.Reply.heldStream("stream-gap", Duration.ofSeconds(10)));
        pair.mock(MockOptions.defaults("hangup", MockMode.HANG));
        String modelList = pair.deployment("retry-timeout", "retry-timeout", "retry-timeout", "timeout: " + SHORT_TIMEOUT)
                + pair.deployment("retry-server", "retry-server", "retry-server", "")
                + pair.deployment("retry-429", "retry-429", "retry-429", "")
                + pair.deployment("retry-auth", "retry-auth", "retry-auth", "api_key: bogus-key, weight: 1000")
                + pair.deployment("retry-auth", "retry-auth-sibling", "retry-auth-sibling", "weight: 0")
                + pair.deployment("retry-refused", "retry-refused", "http://127.0.0.1:" + Ports.refusing() + "/v1", "")
                + pair.deployment("failover-404", "failover-404", "failover-404", "weight: 1000")
                + pair.deployment("failover-404", "failover-404-sibling", "failover-404-sibling", "weight: 0")
                + pair.deployment("failover-400", "failover-400", "failover-400", "weight: 1000")
                + pair.deployment("failover-400", "failover-400-sibling", "failover-400-sibling", "weight: 0")
                + pair.deployment("refused-400", "refused-400", "refused-400", "weight: 1000")
                + pair.deployment("refused-400", "refused-400-sibling", "refused-400-sibling", "weight: 0")
                + pair.deployment("cooldown-server", "cooldown-server", "cooldown-server", "weight: 1000, cooldown_time: " + BENCH_SECONDS)
                + pair.deployment("cooldown-server", "cooldown-server-backup", "cooldown-server-backup", "weight: 0")
                + pair.deployment("cooldown-429", "cooldown-429", "cooldown-429", "weight: 1000, cooldown_time: 1")
                + pair.deployment("cooldown-429", "cooldown-429-backup", "cooldown-429-backup", "weight: 0")
                + pair.deployment("cooldown-auth", "cooldown-auth", "cooldown-auth",
                        "api_key: bogus-key, weight: 1000, cooldown_time: " + BENCH_SECONDS)
                + pair.deployment("cooldown-auth", "cooldown-auth-backup", "cooldown-auth-backup", "weight: 0")
                + pair.deployment("cooldown-timeout", "cooldown-timeout", "cooldown-timeout",
                        "timeout: " + SHORT_TIMEOUT + ", weight: 1000, cooldown_time: " + BENCH_SECONDS)
                + pair.deployment("cooldown-timeout", "cooldown-timeout-backup", "cooldown-timeout-backup", "weight: 0")
                + pair.deployment("fb-server", "fb-server", "fb-server", "")
                + pair.deployment("fb-server-target", "fb-server-target", "fb-server-target", "")
                + pair.deployment("fb-timeout", "fb-timeout", "fb-timeout", "timeout: " + SHORT_TIMEOUT)
                + pair.deployment("fb-timeout-target", "fb-timeout-target", "fb-timeout-target", "")
                + pair.deployment("fb-context", "fb-context", "fb-context", "")
                + pair.deployment("fb-context-target", "fb-context-target", "fb-context-target", "")
                + pair.deployment("fb-context-general", "fb-context-general", "fb-context-general", "")
                + pair.deployment("fb-policy", "fb-policy", "fb-policy", "weight: 1000")
                + pair.deployment("fb-policy", "fb-policy-sibling", "fb-policy-sibling", "weight: 0")
                + pair.deployment("fb-policy-target", "fb-policy-target", "fb-policy-target", "")
                + pair.deployment("fb-policy-general", "fb-policy-general", "fb-policy-general", "")
                + pair.deployment("fb-default", "fb-default", "fb-default", "")
                + pair.deployment("fb-default-target", "fb-default-target", "fb-default-target", "")
                + pair.deployment("guarded", "guarded", "guarded", "weight: 1000, guardrails: [registry-block]")
                + pair.deployment("guarded", "guarded-sibling", "guarded-sibling", "weight: 0")
                + pair.deployment("guarded-fallback", "guarded-fallback", "guarded-fallback", "")
                + pair.deployment("hang", "hang", "hang", "")
                + pair.deployment("hang-fallback", "hang-fallback", "hang-fallback", "")
                + pair.deployment("cut", "cut", "cut", "weight: 1000")
                + pair.deployment("cut", "cut-sibling", "cut-sibling", "weight: 0")
                + pair.deployment("stream-gap", "stream-gap", holding.baseUrl(), "stream_timeout: 0.5, weight: 1000")
                + pair.deployment("stream-gap", "stream-gap-sibling", "cut-sibling", "weight: 0")
                + pair.deployment("hangup", "hangup", "hangup", "");
        pair.start(folder, modelList, """
                guardrails:
                  - guardrail_name: registry-block
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: pre_call
                      blocked_words: [zebracorn]
                """, """
                  # No allowed_fails: the router's default (3) holds for the classes without an
                  # allowance here, so a 401 or a 404 benching at once is their own rule.
                  allowed_fails_policy: {InternalServerErrorAllowedFails: 0, TimeoutErrorAllowedFails: 0}
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
                """);
        a = pair.a();
        b = pair.b();
    }

    @AfterAll
    void stopReplicas() throws IOException {
        pair.close();
        if (holding != null) {
            holding.close();
        }
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

        // The sibling fails too, with a 500 that may repeat: the repeats go to the sibling, never
        // to the deployment that refused (a 400 benches nothing, so only the refusal keeps it out).
        HttpResponse<String> failed = b.post("/v1/chat/completions",
                chat("refused-400", "hi", ", \"num_retries\": 2, \"disable_fallbacks\": true"));
        assertThat(failed.statusCode()).as(failed.body()).isNotEqualTo(200);
        assertThat(failed.headers().firstValue("x-litellm-attempted-retries")).as("the failover and one repeat").hasValue("2");
        assertThat(requests("refused-400")).as("the deployment that answered 400 is asked once").isEqualTo(1);
        assertThat(requests("refused-400-sibling")).as("the sibling's 500 and its repeat").isEqualTo(2);
    }

    // ---- cooldown: trip on a, honoured on b, ends ----

    @Test
    void cooldownOnServerErrorIsSharedAndEnds() {
        assertBenchIsSharedAndEnds("cooldown-server", MockMode.FAIL, BENCH_SECONDS);
    }

    @Test
    void cooldownOnRateLimitIsSharedAndEnds() {
        assertBenchIsSharedAndEnds("cooldown-429", MockMode.RATELIMIT, RETRY_AFTER_SECONDS);
    }

    @Test
    void cooldownOnAuthFailureIsSharedAndEnds() {
        assertBenchIsSharedAndEnds("cooldown-auth", MockMode.AUTH, BENCH_SECONDS);
    }

    @Test
    void cooldownOnTimeoutIsSharedAndEnds() {
        assertBenchIsSharedAndEnds("cooldown-timeout", MockMode.SLOW, BENCH_SECONDS);
    }

    /**
     * One call through {@code a} fails on the primary (weight 1000) and is served by the
     * weight-0 backup; {@code b} reports the bench in {@code /metrics} and its calls, all within
     * 3 s of the trip, never reach the primary; once healed, the primary gets traffic
     * through {@code b} again, not before {@code benchSeconds} less half a second after the trip
     * and not later than 4 s after the bench's end.
     */
    private void assertBenchIsSharedAndEnds(String group, MockMode failing, int benchSeconds) {
        MockUpstream primary = pair.mock(group);
        assertThat(primary.mode()).isEqualTo(failing);
        String backup = group + "-backup";

        HttpResponse<String> trip = a.post("/v1/chat/completions", chat(group, "hi", ""));
        long tripped = System.nanoTime();
        assertServed(trip, group, backup, 1, 0);
        assertThat(primary.requests()).as("a called the failing primary once, then failed over").isEqualTo(1);

        String benched = "sluice_deployment_benched{deployment=\"" + group + "\",model_group=\"" + group + "\"}";
        Eventually.until("b sees the bench a set", Duration.ofSeconds(3),
                () -> MetricSamples.parse(b.get("/metrics").body()).getOrDefault(benched, 0.0) == 1.0);
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> throughB = b.post("/v1/chat/completions", chat(group, "hi", ""));
            assertServed(throughB, group, backup, 0, 0);
        }
        // Within 3 s of the trip, so inside every bench of these cells (5 s and more).
        assertThat(millisSince(tripped)).as("b's calls came within 3 s of the trip").isLessThan(3_000);
        assertThat(primary.requests()).as("b never called the primary a benched").isEqualTo(1);

        primary.setMode(MockMode.OK);
        Eventually.until("b sees the bench end", Duration.ofSeconds(benchSeconds + 4), () -> b.metric(benched) == 0.0);
        long sent = System.nanoTime();
        HttpResponse<String> throughB = b.post("/v1/chat/completions", chat(group, "hi", ""));
        assertThat(throughB.statusCode()).as(throughB.body()).isEqualTo(200);
        assertThat(throughB.headers().firstValue("x-litellm-model-id")).as("the primary takes traffic again after its bench")
                .hasValue(group);
        assertThat(TimeUnit.NANOSECONDS.toMillis(sent - tripped))
                .as("the primary took traffic again only once its %d s bench was nearly over", benchSeconds)
                .isGreaterThanOrEqualTo(benchSeconds * 1_000L - 500);
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
        // default_fallbacks serve every group without a fallbacks entry, so count from here.
        int before = requests("fb-default-target");
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("fb-default", "hi", ", \"num_retries\": 0"));
        assertServed(answer, "fb-default-target", "fb-default-target", 0, 1);
        assertThat(requests("fb-default")).isEqualTo(1);
        assertThat(requests("fb-default-target") - before).isEqualTo(1);
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
        assertThat(took).as("ms before the answer to a request with timeout 1").isBetween(900L, 4_000L);
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

    @Test
    void streamTimeoutBetweenChunksEndsTheStreamWithAnError() {
        int siblingBefore = requests("cut-sibling");
        int defaultBefore = requests("fb-default-target");
        long start = System.nanoTime();
        HttpResponse<String> answer = a.post("/v1/chat/completions",
                "{\"model\":\"stream-gap\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        long took = millisSince(start);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-litellm-model-id")).hasValue("stream-gap");
        assertThat(answer.body()).as("the first event, then a stream_timeout error event")
                .contains("[stream-gap] first").contains("\"stream_timeout\"").doesNotContain("[DONE]");
        assertThat(took).as("ms: the stream ended at its 0.5 s gap, not when the upstream went on after 10 s").isLessThan(5_000);
        assertThat(holding.calls()).isEqualTo(1);
        a.awaitMetric("a's call is over", "sluice_requests_in_flight", 0.0);
        assertThat(requests("cut-sibling")).as("not retried on the sibling once events were sent").isEqualTo(siblingBefore);
        assertThat(requests("fb-default-target")).as("nor on a default fallback").isEqualTo(defaultBefore);
    }

    @Test
    void callerHangingUpCancelsTheUpstreamCall() {
        int defaultBefore = requests("fb-default-target");
        HttpRequest request = HttpRequest.newBuilder(b.uri("/v1/chat/completions"))
                .timeout(Duration.ofMillis(500))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(chat("hangup", "hi", "")))
                .build();
        assertThatThrownBy(() -> b.client().send(request, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(HttpTimeoutException.class);
        MockUpstream hangup = pair.mock("hangup");
        Eventually.until("the upstream sees the call given up", Duration.ofSeconds(3), () -> hangup.cancelledStreams() == 1);
        b.awaitMetric("the attempt is released", "sluice_deployment_in_flight{deployment=\"hangup\",model_group=\"hangup\"}", 0.0);
        b.awaitMetric("b's call is over", "sluice_requests_in_flight", 0.0);
        assertThat(hangup.requests()).as("nothing is retried for a caller who left").isEqualTo(1);
        assertThat(requests("fb-default-target")).as("nor sent to a default fallback").isEqualTo(defaultBefore);
    }

    // ---- helpers ----

    private int requests(String mock) {
        return pair.requests(mock);
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
