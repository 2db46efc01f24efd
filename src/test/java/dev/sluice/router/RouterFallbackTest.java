package dev.sluice.router;

import static dev.sluice.router.harness.ConfigText.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import dev.sluice.router.harness.ConfigText;
import dev.sluice.router.harness.OutcomeLine;
import dev.sluice.router.harness.RouterHarness;
import dev.sluice.router.harness.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Fallback groups once the requested group is exhausted: their order, the reasons one is
 * skipped (in the order they are checked), the list the failure's class chooses, and which
 * failure the caller is answered with.
 */
class RouterFallbackTest {
    static final Duration NS = Duration.ofNanos(1);

    /** chat, g2, g3, g4 of one deployment each (a1, b1, c1, d1), no retries, and {@code settings}. */
    private static RouterHarness groups(String... settings) {
        ConfigText config = config().group("chat", "a1").group("g2", "b1").group("g3", "c1").group("g4", "d1")
                .router("num_retries: 0");
        for (String setting : settings) {
            config.router(setting);
        }
        return RouterHarness.of(config);
    }

    @Test
    void fallbacksAreTriedInOrderUntilOneServes() {
        RouterHarness harness = groups("fallbacks: [{chat: [g2, g3, g4]}]");
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER)).script("b1", Step.fails(FailureClass.TIMEOUT))
                .script("c1", Step.serves());

        RouteOutcome<String> outcome = harness.route("chat");

        // Each fallback event carries the requested group's failure, whatever the last fallback failed with.
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 fallback chat->g2 server",
                "@0 attempt g2/b1 #0",
                "@0 ended g2/b1 timeout after 0ms",
                "@0 failed g2/b1 timeout",
                "@0 fallback chat->g3 server",
                "@0 attempt g3/c1 #0",
                "@0 ended g3/c1 served after 0ms");
        assertThat(harness.upstreams().plans()).extracting(AttemptPlan::fallbacksTried).containsExactly(0, 1, 2);
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "served by c1 | last g3/c1 | retries 0 | fallbacks 2 | tried chat[a1:server] g2[b1:timeout] g3[c1:served]");
    }

    @Test
    void alreadyTriedAndUnknownGroupsAreSkippedWithTheirReasons() {
        RouterHarness harness = groups();
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER)).script("b1", Step.fails(FailureClass.SERVER))
                .script("c1", Step.serves());

        RouteOutcome<String> outcome = harness.route("chat",
                CallerOverrides.builder().fallbacks(Optional.of(List.of("chat", "nope", "g2", "g2", "g3"))).build());

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 skip chat->chat already_tried",
                "@0 skip chat->nope unknown_group",
                "@0 fallback chat->g2 server",
                "@0 attempt g2/b1 #0",
                "@0 ended g2/b1 server after 0ms",
                "@0 failed g2/b1 server 500",
                "@0 skip chat->g2 already_tried",
                "@0 fallback chat->g3 server",
                "@0 attempt g3/c1 #0",
                "@0 ended g3/c1 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by c1 | last g3/c1 | retries 0 | fallbacks 2"
                + " | tried chat[a1:server] g2[b1:server] g3[c1:served]"
                + " | skipped chat:already_tried nope:unknown_group g2:already_tried");
    }

    @Test
    void maxFallbacksStopsTheListAfterThatManyGroupsWereTried() {
        RouterHarness atOne = groups("fallbacks: [{chat: [g2, g2, g3]}]", "max_fallbacks: 1");
        atOne.upstreams().script("a1", Step.fails(FailureClass.SERVER)).script("b1", Step.fails(FailureClass.SERVER));

        RouteOutcome<String> outcome = atOne.route("chat");

        // An already-tried group is skipped as such before max_fallbacks is looked at.
        assertThat(atOne.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 fallback chat->g2 server",
                "@0 attempt g2/b1 #0",
                "@0 ended g2/b1 server after 0ms",
                "@0 failed g2/b1 server 500",
                "@0 skip chat->g2 already_tried",
                "@0 skip chat->g3 max_fallbacks");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("failure chat/a1 server 500 | last g2/b1 | retries 0 | fallbacks 1"
                + " | tried chat[a1:server] g2[b1:server] | skipped g2:already_tried g3:max_fallbacks");

        RouterHarness atTwo = groups("fallbacks: [{chat: [g2, g3]}]", "max_fallbacks: 2");
        atTwo.upstreams().script("a1", Step.fails(FailureClass.SERVER)).script("b1", Step.fails(FailureClass.SERVER))
                .script("c1", Step.serves());
        assertThat(OutcomeLine.of(atTwo.route("chat"))).startsWith("served by c1 | last g3/c1 | retries 0 | fallbacks 2");
    }

    @Test
    void maxFallbacksOfZeroSkipsEveryFallback() {
        RouterHarness harness = groups("fallbacks: [{chat: [g2]}]", "max_fallbacks: 0");
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER));

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).endsWith("@0 skip chat->g2 max_fallbacks");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("failure chat/a1 server 500 | last chat/a1 | retries 0 | fallbacks 0"
                + " | tried chat[a1:server] | skipped g2:max_fallbacks");
    }

    @Test
    void aFallbackIsSkippedWhenTheDeadlineRanOutExactlyAsTheGroupEnded() {
        RouterHarness harness = groups("fallbacks: [{chat: [g2]}]");
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER).after(Duration.ofSeconds(10)));

        RouteOutcome<String> outcome = harness.route("chat", within(Duration.ofSeconds(10)));

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@10000 ended chat/a1 server after 10000ms",
                "@10000 failed chat/a1 server 500",
                "@10000 skip chat->g2 deadline");
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 server 500 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:server] | skipped g2:deadline");
    }

    @Test
    void aFallbackWithANanosecondLeftIsTriedWithThatNanosecond() {
        RouterHarness harness = groups("fallbacks: [{chat: [g2]}]");
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER).after(Duration.ofSeconds(10).minus(NS)))
                .script("b1", Step.timesOut());

        RouteOutcome<String> outcome = harness.route("chat", within(Duration.ofSeconds(10)));

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@9999.999999 ended chat/a1 server after 9999.999999ms",
                "@9999.999999 failed chat/a1 server 500",
                "@9999.999999 fallback chat->g2 server",
                "@9999.999999 attempt g2/b1 #0",
                "@10000 ended g2/b1 timeout after 0.000001ms",
                "@10000 failed g2/b1 timeout");
        assertThat(harness.upstreams().plans().getLast().deadline().perTry()).isEqualTo(NS);
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 server 500 | last g2/b1 | retries 0 | fallbacks 1 | tried chat[a1:server] g2[b1:timeout]");
    }

    @Test
    void theGateIsAskedAfterTheOtherChecksAndItsRefusalsAreSkips() {
        RouterHarness harness = groups();
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER)).script("d1", Step.serves());
        List<String> asked = new ArrayList<>();
        FallbackGate gate = (target, group) -> {
            asked.add(group.name());
            return switch (group.name()) {
                case "g2" -> Optional.of(SkipReason.NO_ACCESS);
                case "g3" -> Optional.of(SkipReason.OVER_BUDGET);
                default -> Optional.empty();
            };
        };

        RouteOutcome<String> outcome = harness.route("chat",
                CallerOverrides.builder().fallbacks(Optional.of(List.of("chat", "nope", "g2", "g3", "g4"))).build(), gate);

        assertThat(asked).containsExactly("g2", "g3", "g4");
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 skip chat->chat already_tried",
                "@0 skip chat->nope unknown_group",
                "@0 skip chat->g2 no_access",
                "@0 skip chat->g3 over_budget",
                "@0 fallback chat->g4 server",
                "@0 attempt g4/d1 #0",
                "@0 ended g4/d1 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by d1 | last g4/d1 | retries 0 | fallbacks 1"
                + " | tried chat[a1:server] g4[d1:served] | skipped chat:already_tried nope:unknown_group g2:no_access g3:over_budget");
    }

    @Test
    void aGateThatRefusesEveryFallbackLeavesThePrimarysFailure() {
        RouterHarness harness = groups("fallbacks: [{chat: [g2]}]");
        harness.upstreams().script("a1", Step.fails(FailureClass.AUTH));

        RouteOutcome<String> outcome = harness.route("chat", CallerOverrides.NONE, (target, group) -> Optional.of(SkipReason.OVER_BUDGET));

        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 auth 401 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:auth] | skipped g2:over_budget");
    }

    @ParameterizedTest
    @CsvSource({"CONTEXT_WINDOW, g3", "CONTENT_POLICY, g4", "SERVER, g2", "REJECTED, g2"})
    void theFailuresClassChoosesTheFallbackList(FailureClass kind, String target) {
        RouterHarness harness = groups("fallbacks: [{chat: [g2]}]", "context_window_fallbacks: [{chat: [g3]}]",
                "content_policy_fallbacks: [{chat: [g4]}]");
        harness.upstreams().script("a1", Step.fails(kind)).always("b1", Step.serves()).always("c1", Step.serves())
                .always("d1", Step.serves());

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).contains("@0 fallback chat->" + target + " " + kind.wireName());
        assertThat(outcome.lastGroup()).isEqualTo(target);
        assertThat(outcome.fallbacksTried()).isEqualTo(1);
    }

    @ParameterizedTest
    @CsvSource({"CONTEXT_WINDOW", "CONTENT_POLICY"})
    void aClassWithoutItsOwnListForTheGroupFallsBackByTheGeneralList(FailureClass kind) {
        RouterHarness harness = groups("fallbacks: [{chat: [g2]}]", "context_window_fallbacks: [{g3: [g4]}]",
                "content_policy_fallbacks: [{g3: [g4]}]");
        harness.upstreams().script("a1", Step.fails(kind)).script("b1", Step.serves());

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).contains("@0 fallback chat->g2 " + kind.wireName());
        assertThat(outcome.lastGroup()).isEqualTo("g2");
    }

    @Test
    void theCallerIsAnsweredWithThePrimarysFailureWhateverTheFallbacksFailedWith() {
        RouterHarness harness = groups("fallbacks: [{chat: [g2, g3]}]");
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER, 503)).script("b1", Step.fails(FailureClass.REJECTED))
                .script("c1", Step.fails(FailureClass.NOT_FOUND));

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(outcome.failure()).hasValueSatisfying(at -> {
            assertThat(at.group()).isEqualTo("chat");
            assertThat(at.deployment()).hasValueSatisfying(d -> assertThat(d.id()).isEqualTo("a1"));
            assertThat(at.failure()).isSameAs(outcome.groups().getFirst().lastFailure().orElseThrow());
        });
        assertThat(OutcomeLine.of(outcome)).isEqualTo("failure chat/a1 server 503 | last g3/c1 | retries 0 | fallbacks 2"
                + " | tried chat[a1:server] g2[b1:rejected] g3[c1:not_found]");
    }

    @Test
    void aGuardrailRefusalInAFallbackIsTheAnswerAndEndsTheRequest() {
        RouterHarness harness = groups("fallbacks: [{chat: [g2, g3]}]");
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER)).script("b1", Step.fails(FailureClass.GUARDRAIL));

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 fallback chat->g2 server",
                "@0 attempt g2/b1 #0",
                "@0 ended g2/b1 guardrail after 0ms",
                "@0 failed g2/b1 guardrail");
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure g2/b1 guardrail | last g2/b1 | retries 0 | fallbacks 1 | tried chat[a1:server] g2[b1:guardrail]");
    }

    @Test
    void theCallerCanTurnFallbacksOff() {
        RouterHarness harness = groups("fallbacks: [{chat: [g2]}]");
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER));

        RouteOutcome<String> outcome = harness.route("chat", CallerOverrides.builder().disableFallbacks(true).build());

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500");
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 server 500 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:server]");
    }

    private static CallerOverrides within(Duration total) {
        return CallerOverrides.builder().timeout(Optional.of(total)).build();
    }
}
