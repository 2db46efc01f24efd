package dev.sluice.router;

import static dev.sluice.router.harness.ConfigText.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import dev.sluice.router.harness.OutcomeLine;
import dev.sluice.router.harness.RouterHarness;
import dev.sluice.router.harness.Step;
import dev.sluice.time.Backoff;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Benching as routing sees it, request after request on one fake clock: the allowance within
 * the failure window, classes that bench at once, a group never benched into nothing, and a
 * bench lapsing exactly at its end.
 */
class RouterBenchTest {
    static final Duration NS = Duration.ofNanos(1);
    /** One retry: a request makes its first attempt and, when it fails over, one more. */
    static final Backoff NO_WAIT = new Backoff(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(60));
    static final CallerOverrides ONE_FAILOVER = CallerOverrides.builder().numRetries(OptionalInt.of(1)).build();

    @Test
    void failuresUpToAllowedFailsLeaveTheDeploymentInAndTheOneAboveBenchesIt() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router("allowed_fails: 2"));
        harness.upstreams().always("a1", Step.fails(FailureClass.SERVER)).always("a2", Step.serves());

        // One below the allowance, then at it: a1 is still tried first.
        for (int request = 1; request <= 2; request++) {
            harness.route("chat");
            assertThat(harness.events().drain()).as("request %d", request).containsExactly(
                    "@0 attempt chat/a1 #0",
                    "@0 ended chat/a1 server after 0ms",
                    "@0 failed chat/a1 server 500",
                    "@0 failover chat/a1 server",
                    "@0 attempt chat/a2 #1",
                    "@0 ended chat/a2 served after 0ms");
        }
        // One above it: benched for cooldown_time (5 s by default).
        harness.route("chat");
        assertThat(harness.events().drain()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 bench chat/a1 server until @5000",
                "@0 failover chat/a1 server",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 served after 0ms");
        // Benched: the next request goes straight to a2.
        RouteOutcome<String> outcome = harness.route("chat");
        assertThat(harness.events().drain()).containsExactly(
                "@0 attempt chat/a2 #0",
                "@0 ended chat/a2 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by a2 | last chat/a2 | retries 0 | fallbacks 0 | tried chat[a2:served]");
    }

    @Test
    void theFailureThatCrossesTheAllowanceJustBeforeTheWindowEndsBenches() {
        RouterHarness harness = failingFirst("allowed_fails: 1");

        harness.route("chat");
        harness.time().advanceTo(Cooldowns.FAILURE_WINDOW.minus(NS));
        harness.events().drain();
        harness.route("chat");

        assertThat(harness.events().drain()).containsExactly(
                "@59999.999999 attempt chat/a1 #0",
                "@59999.999999 ended chat/a1 server after 0ms",
                "@59999.999999 failed chat/a1 server 500",
                "@59999.999999 bench chat/a1 server until @64999.999999",
                "@59999.999999 failover chat/a1 server",
                "@59999.999999 attempt chat/a2 #1",
                "@59999.999999 ended chat/a2 served after 0ms");
    }

    @Test
    void aFailureOnceTheWindowHasEndedCountsInANewWindow() {
        RouterHarness harness = failingFirst("allowed_fails: 1");

        harness.route("chat");
        harness.time().advanceTo(Cooldowns.FAILURE_WINDOW);
        harness.events().drain();
        harness.route("chat");

        assertThat(harness.events().drain()).containsExactly(
                "@60000 attempt chat/a1 #0",
                "@60000 ended chat/a1 server after 0ms",
                "@60000 failed chat/a1 server 500",
                "@60000 failover chat/a1 server",
                "@60000 attempt chat/a2 #1",
                "@60000 ended chat/a2 served after 0ms");
    }

    @ParameterizedTest
    @EnumSource(names = {"RATE_LIMITED", "AUTH"})
    void a429OrA401BenchesAtOnceForTheCooldownTime(FailureClass kind) {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router("cooldown_time: 30"));
        harness.upstreams().script("a1", Step.fails(kind)).always("a2", Step.serves());

        harness.route("chat");

        assertThat(harness.events().drain()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 " + kind.wireName() + " after 0ms",
                "@0 failed chat/a1 " + kind.wireName() + " " + (kind == FailureClass.AUTH ? 401 : 429),
                "@0 bench chat/a1 " + kind.wireName() + " until @30000",
                "@0 failover chat/a1 " + kind.wireName(),
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 served after 0ms");
    }

    @Test
    void a429sRetryAfterSetsItsBench() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2"));
        harness.upstreams().script("a1", Step.rateLimited(Duration.ofSeconds(42))).always("a2", Step.serves());

        harness.route("chat");

        assertThat(harness.events().lines()).contains("@0 bench chat/a1 rate_limited until @42000");
    }

    @Test
    void aWrittenAllowedFailsMakesA401CountButA429StillBenchesAtOnce() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router("allowed_fails: 1"));
        harness.upstreams().script("a1", Step.fails(FailureClass.AUTH), Step.fails(FailureClass.RATE_LIMITED))
                .always("a2", Step.serves());

        harness.route("chat");
        assertThat(harness.events().drain()).noneMatch(line -> line.contains("bench"));

        harness.route("chat");
        assertThat(harness.events().drain()).contains("@0 bench chat/a1 rate_limited until @5000");
    }

    @Test
    void aGroupsOnlyDeploymentIsNeverBenched() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1").router("allowed_fails: 0"));
        harness.upstreams().script("a1", Step.rateLimited(Duration.ofSeconds(90)), Step.serves());

        harness.route("chat", CallerOverrides.builder().numRetries(OptionalInt.of(0)).build());
        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 rate_limited after 0ms",
                "@0 failed chat/a1 rate_limited 429 retry-after 90000ms",
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by a1 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:served]");
    }

    @Test
    void whenEveryDeploymentIsBenchedTheOneWhoseBenchEndsFirstIsTried() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2"));
        harness.upstreams().script("a1", Step.rateLimited(Duration.ofSeconds(20)))
                .script("a2", Step.rateLimited(Duration.ofSeconds(10)), Step.serves(), Step.serves());

        harness.route("chat", ONE_FAILOVER);
        assertThat(harness.events().drain()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 rate_limited after 0ms",
                "@0 failed chat/a1 rate_limited 429 retry-after 20000ms",
                "@0 bench chat/a1 rate_limited until @20000",
                "@0 failover chat/a1 rate_limited",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 rate_limited after 0ms",
                "@0 failed chat/a2 rate_limited 429 retry-after 10000ms",
                "@0 bench chat/a2 rate_limited until @10000");

        // Both benched: a2's bench ends first, so a2 gets the request rather than no one.
        harness.time().advanceTo(Duration.ofSeconds(10).minus(NS));
        RouteOutcome<String> outcome = harness.route("chat");
        assertThat(harness.events().drain()).containsExactly(
                "@9999.999999 attempt chat/a2 #0",
                "@9999.999999 ended chat/a2 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by a2 | last chat/a2 | retries 0 | fallbacks 0 | tried chat[a2:served]");

        // At a2's bench end it is back, and said to be; a1 is still benched.
        harness.time().advanceTo(Duration.ofSeconds(10));
        harness.route("chat");
        assertThat(harness.events().drain()).containsExactly(
                "@10000 unbench chat/a2",
                "@10000 attempt chat/a2 #0",
                "@10000 ended chat/a2 served after 0ms");
    }

    @Test
    void aBenchHoldsUntilItsEndAndLapsesExactlyThere() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2"));
        harness.upstreams().script("a1", Step.fails(FailureClass.AUTH), Step.serves()).always("a2", Step.serves());
        harness.route("chat");
        assertThat(harness.events().drain()).contains("@0 bench chat/a1 auth until @5000");

        harness.time().advanceTo(Duration.ofSeconds(5).minus(NS));
        harness.route("chat");
        assertThat(harness.events().drain()).containsExactly(
                "@4999.999999 attempt chat/a2 #0",
                "@4999.999999 ended chat/a2 served after 0ms");

        harness.time().advanceTo(Duration.ofSeconds(5));
        RouteOutcome<String> outcome = harness.route("chat");
        assertThat(harness.events().drain()).containsExactly(
                "@5000 unbench chat/a1",
                "@5000 attempt chat/a1 #0",
                "@5000 ended chat/a1 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by a1 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:served]");
    }

    @Test
    void aRepeatGoesToAHealthyTriedDeploymentBeforeABenchedOne() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2")
                .router("allowed_fails: 0").router("allowed_fails_policy: {TimeoutErrorAllowedFails: 1}"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(FailureClass.TIMEOUT), Step.serves())
                .script("a2", Step.fails(FailureClass.SERVER));

        harness.route("chat");

        // a1's timeout is within its allowance, a2's server error benches it: a1 is repeated.
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 timeout after 0ms",
                "@0 failed chat/a1 timeout",
                "@0 failover chat/a1 timeout",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 server after 0ms",
                "@0 failed chat/a2 server 500",
                "@0 bench chat/a2 server until @5000",
                "@0 retry chat/a1 timeout wait 0ms",
                "@0 attempt chat/a1 #2",
                "@0 ended chat/a1 served after 0ms");
    }

    @Test
    void whenEveryTriedDeploymentIsBenchedTheOneThatJustFailedIsRepeated() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router("allowed_fails: 0"), NO_WAIT);
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER))
                .script("a2", Step.fails(FailureClass.SERVER), Step.serves());

        harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 bench chat/a1 server until @5000",
                "@0 failover chat/a1 server",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 server after 0ms",
                "@0 failed chat/a2 server 500",
                "@0 bench chat/a2 server until @5000",
                "@0 retry chat/a2 server wait 0ms",
                "@0 attempt chat/a2 #2",
                "@0 ended chat/a2 served after 0ms");
    }

    /** a1 always fails with a server error, a2 always serves, under {@code setting}. */
    private static RouterHarness failingFirst(String setting) {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router(setting));
        harness.upstreams().always("a1", Step.fails(FailureClass.SERVER)).always("a2", Step.serves());
        return harness;
    }
}
