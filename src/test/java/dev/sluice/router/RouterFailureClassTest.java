package dev.sluice.router;

import static dev.sluice.router.harness.ConfigText.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import dev.sluice.router.harness.ConfigText;
import dev.sluice.router.harness.OutcomeLine;
import dev.sluice.router.harness.RouterHarness;
import dev.sluice.router.harness.Step;
import dev.sluice.time.Backoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each failure class's rule, read off the taxonomy: repeat in place, fail over to an untried
 * sibling (any, or only a larger window), or neither; a guardrail ends the request; and the
 * retry budget for the class bounds repeats and failovers together.
 */
class RouterFailureClassTest {
    /** Waits of nothing, so the time and the draws say only what the rules did. */
    static final Backoff NO_WAIT = new Backoff(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(60));

    @ParameterizedTest
    @CsvSource({"TRANSPORT, transport", "TIMEOUT, timeout", "RATE_LIMITED, rate_limited 429", "SERVER, server 500"})
    void anUnavailableBackendIsRepeatedInPlaceWhenNoSiblingIsLeft(FailureClass kind, String failed) {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(kind), Step.serves());

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 " + kind.wireName() + " after 0ms",
                "@0 failed chat/a1 " + failed,
                "@0 retry chat/a1 " + kind.wireName() + " wait 0ms",
                "@0 attempt chat/a1 #1",
                "@0 ended chat/a1 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by a1 | last chat/a1 | retries 1 | fallbacks 0"
                + " | tried chat[a1:" + kind.wireName() + " a1:served]");
    }

    @ParameterizedTest
    @CsvSource({"AUTH, auth 401", "NOT_FOUND, not_found 404", "REJECTED, rejected 400", "CONTEXT_WINDOW, context_window 400",
            "CONTENT_POLICY, content_policy 400", "GUARDRAIL, guardrail"})
    void aRefusalIsNeverRepeatedInPlace(FailureClass kind, String failed) {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1").router("num_retries: 5"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(kind));

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 " + kind.wireName() + " after 0ms",
                "@0 failed chat/a1 " + failed);
        assertThat(OutcomeLine.of(outcome)).isEqualTo("failure chat/a1 " + failed + " | last chat/a1 | retries 0 | fallbacks 0"
                + " | tried chat[a1:" + kind.wireName() + "]");
    }

    /**
     * @param benched the bench line the failure writes at once, or {@code -} when it only
     *                counts toward allowed_fails or never benches
     */
    @ParameterizedTest
    @CsvSource({
            "TRANSPORT, transport, -",
            "TIMEOUT, timeout, -",
            "SERVER, server 500, -",
            "RATE_LIMITED, rate_limited 429, bench chat/a1 rate_limited until @5000",
            "AUTH, auth 401, bench chat/a1 auth until @5000",
            "NOT_FOUND, not_found 404, bench chat/a1 not_found until @5000",
            "REJECTED, rejected 400, -"})
    void aFailureFailsOverToAnUntriedSibling(FailureClass kind, String failed, String benched) {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(kind)).script("a2", Step.serves());

        RouteOutcome<String> outcome = harness.route("chat");

        List<String> expected = new ArrayList<>(List.of(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 " + kind.wireName() + " after 0ms",
                "@0 failed chat/a1 " + failed));
        if (!benched.equals("-")) {
            expected.add("@0 " + benched);
        }
        expected.addAll(List.of(
                "@0 failover chat/a1 " + kind.wireName(),
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 served after 0ms"));
        assertThat(harness.events().lines()).containsExactlyElementsOf(expected);
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by a2 | last chat/a2 | retries 1 | fallbacks 0"
                + " | tried chat[a1:" + kind.wireName() + " a2:served]");
    }

    @Test
    void aContentPolicyRefusalGoesToNoSibling() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router("num_retries: 5"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(FailureClass.CONTENT_POLICY));

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 content_policy after 0ms",
                "@0 failed chat/a1 content_policy 400");
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 content_policy 400 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:content_policy]");
    }

    @Test
    void aContextWindowRefusalGoesOnlyToASiblingWithALargerWindow() {
        RouterHarness harness = RouterHarness.of(config()
                .deployment("chat", "a1", "order: 1", "max_input_tokens: 8000")
                .deployment("chat", "same", "order: 2", "max_input_tokens: 8000")
                .deployment("chat", "unknown", "order: 3", "")
                .deployment("chat", "larger", "order: 4", "max_input_tokens: 8001")
                .router("num_retries: 5"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(FailureClass.CONTEXT_WINDOW))
                .script("larger", Step.fails(FailureClass.CONTEXT_WINDOW));

        RouteOutcome<String> outcome = harness.route("chat");

        // The same window and an unknown one are passed over; nothing is larger than 8001, so the group ends.
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 context_window after 0ms",
                "@0 failed chat/a1 context_window 400",
                "@0 failover chat/a1 context_window",
                "@0 attempt chat/larger #1",
                "@0 ended chat/larger context_window after 0ms",
                "@0 failed chat/larger context_window 400");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("failure chat/larger context_window 400 | last chat/larger | retries 1"
                + " | fallbacks 0 | tried chat[a1:context_window larger:context_window]");
    }

    @Test
    void aGuardrailRefusalEndsTheRequestWithNoSiblingAndNoFallback() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").group("g2", "b1")
                .router("fallbacks: [{chat: [g2]}]"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(FailureClass.GUARDRAIL));

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 guardrail after 0ms",
                "@0 failed chat/a1 guardrail");
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 guardrail | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:guardrail]");
    }

    @Test
    void aRejectedRequestFailsOverButNoDeploymentThatRejectedItIsAskedAgain() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router("num_retries: 5"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(FailureClass.REJECTED)).script("a2", Step.fails(FailureClass.REJECTED));

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 rejected after 0ms",
                "@0 failed chat/a1 rejected 400",
                "@0 failover chat/a1 rejected",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 rejected after 0ms",
                "@0 failed chat/a2 rejected 400");
        // The caller gets the last upstream's own answer, not a made-up 5xx.
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a2 rejected 400 | last chat/a2 | retries 1 | fallbacks 0 | tried chat[a1:rejected a2:rejected]");
    }

    @Test
    void aSiblingThatMayRepeatIsRepeatedButTheOneThatRejectedIsNot() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router("num_retries: 5"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(FailureClass.REJECTED))
                .script("a2", Step.fails(FailureClass.SERVER), Step.serves());

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 rejected after 0ms",
                "@0 failed chat/a1 rejected 400",
                "@0 failover chat/a1 rejected",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 server after 0ms",
                "@0 failed chat/a2 server 500",
                "@0 retry chat/a2 server wait 0ms",
                "@0 attempt chat/a2 #2",
                "@0 ended chat/a2 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "served by a2 | last chat/a2 | retries 2 | fallbacks 0 | tried chat[a1:rejected a2:server a2:served]");
    }

    // --- the retry budget ---------------------------------------------------------------------

    @Test
    void numRetriesBoundsFailoversAndRepeatsTogether() {
        assertThat(triedWith("num_retries: 0")).isEqualTo("tried chat[a1:server]");
        assertThat(triedWith("num_retries: 1")).isEqualTo("tried chat[a1:server a2:server]");
        assertThat(triedWith("num_retries: 2")).isEqualTo("tried chat[a1:server a2:server a3:server]");
        assertThat(triedWith("num_retries: 3")).isEqualTo("tried chat[a1:server a2:server a3:server a1:server]");
    }

    @Test
    void theRetryPolicyForTheFailuresClassReplacesNumRetries() {
        String policy = "retry_policy: {RateLimitErrorRetries: 0, InternalServerErrorRetries: 1}";

        assertThat(triedWith(FailureClass.RATE_LIMITED, "num_retries: 5", policy)).isEqualTo("tried chat[a1:rate_limited]");
        assertThat(triedWith(FailureClass.SERVER, "num_retries: 5", policy)).isEqualTo("tried chat[a1:server a2:server]");
        // No policy key for transport: num_retries holds.
        assertThat(triedWith(FailureClass.TRANSPORT, "num_retries: 5", policy))
                .isEqualTo("tried chat[a1:transport a2:transport a3:transport a1:transport a1:transport a1:transport]");
    }

    @Test
    void theGroupsRetryPolicyReplacesTheRoutersAndTheCallersCountReplacesBoth() {
        String router = "retry_policy: {InternalServerErrorRetries: 0}";
        String group = "model_group_retry_policy: {chat: {InternalServerErrorRetries: 2}}";

        assertThat(triedWith(FailureClass.SERVER, router, group)).isEqualTo("tried chat[a1:server a2:server a3:server]");

        RouterHarness harness = threeFailing(FailureClass.SERVER, router, group);
        RouteOutcome<String> outcome = harness.route("chat", CallerOverrides.builder().numRetries(OptionalInt.of(1)).build());
        assertThat(OutcomeLine.of(outcome)).endsWith("tried chat[a1:server a2:server]");
    }

    @Test
    void theBudgetIsReadOffTheClassOfTheFailureJustSeen() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2", "a3")
                .router("num_retries: 5").router("retry_policy: {RateLimitErrorRetries: 1}"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER)).script("a2", Step.fails(FailureClass.RATE_LIMITED));

        RouteOutcome<String> outcome = harness.route("chat");

        // One retry made, and a 429 allows one: a3 is not asked.
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 failover chat/a1 server",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 rate_limited after 0ms",
                "@0 failed chat/a2 rate_limited 429",
                "@0 bench chat/a2 rate_limited until @5000");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("failure chat/a2 rate_limited 429 | last chat/a2 | retries 1"
                + " | fallbacks 0 | tried chat[a1:server a2:rate_limited]");
    }

    private static String triedWith(String... settings) {
        return triedWith(FailureClass.SERVER, settings);
    }

    /** Which attempts a request made, three deployments always failing with {@code kind}, under {@code settings}. */
    private static String triedWith(FailureClass kind, String... settings) {
        RouteOutcome<String> outcome = threeFailing(kind, settings).route("chat");
        String line = OutcomeLine.of(outcome);
        return line.substring(line.indexOf("tried "));
    }

    private static RouterHarness threeFailing(FailureClass kind, String... settings) {
        // allowed_fails high enough that no bench narrows the group while the budget is counted.
        ConfigText config = config().group("chat", "a1", "a2", "a3").router("allowed_fails: 100");
        for (String setting : settings) {
            config.router(setting);
        }
        RouterHarness harness = RouterHarness.of(config, NO_WAIT);
        for (String id : List.of("a1", "a2", "a3")) {
            harness.upstreams().always(id, Step.fails(kind));
        }
        return harness;
    }
}
