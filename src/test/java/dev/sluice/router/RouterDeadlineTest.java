package dev.sluice.router;

import static dev.sluice.router.harness.ConfigText.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import dev.sluice.router.harness.OutcomeLine;
import dev.sluice.router.harness.RouterHarness;
import dev.sluice.router.harness.Step;
import dev.sluice.time.Backoff;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One total deadline covers every attempt and every wait: a repeat whose wait would end at or
 * after it is not made, and each attempt's own deadline is cut to what is left of it.
 */
class RouterDeadlineTest {
    static final Duration NS = Duration.ofNanos(1);
    static final Duration FIRST_TRY = Duration.ofSeconds(1);
    /** The first jittered wait the seeded random gives (the ceiling for a first repeat is 500 ms). */
    static final long FIRST_WAIT = new Random(RouterHarness.SEED).nextLong(501);

    final RouterHarness harness = RouterHarness.of(config().group("chat", "a1"));

    @Test
    void aRetryWhoseWaitWouldEndExactlyAtTheDeadlineIsNotMade() {
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER).after(FIRST_TRY));

        RouteOutcome<String> outcome = routeWithin(FIRST_TRY.plusMillis(FIRST_WAIT));

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@1000 ended chat/a1 server after 1000ms",
                "@1000 failed chat/a1 server 500");
        assertThat(harness.random().draws()).containsExactly("nextLong(501)=" + FIRST_WAIT);
        assertThat(harness.delays().waits()).isEmpty();
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 server 500 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:server]");
    }

    @Test
    void aRetryWhoseWaitWouldEndJustAfterTheDeadlineIsNotMade() {
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER).after(FIRST_TRY));

        RouteOutcome<String> outcome = routeWithin(FIRST_TRY.plusMillis(FIRST_WAIT).minus(NS));

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@1000 ended chat/a1 server after 1000ms",
                "@1000 failed chat/a1 server 500");
        assertThat(harness.delays().waits()).isEmpty();
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 server 500 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:server]");
    }

    @Test
    void aRetryWhoseWaitEndsJustBeforeTheDeadlineIsMadeWithWhatIsLeft() {
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER).after(FIRST_TRY), Step.timesOut());

        RouteOutcome<String> outcome = routeWithin(FIRST_TRY.plusMillis(FIRST_WAIT).plus(NS));

        long retryAt = 1000 + FIRST_WAIT;
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@1000 ended chat/a1 server after 1000ms",
                "@1000 failed chat/a1 server 500",
                "@1000 retry chat/a1 server wait " + FIRST_WAIT + "ms",
                "@" + retryAt + " attempt chat/a1 #1",
                "@" + retryAt + ".000001 ended chat/a1 timeout after 0.000001ms",
                "@" + retryAt + ".000001 failed chat/a1 timeout");
        // The second repeat's wait is drawn, then found not to fit in the nothing that is left.
        Random twin = new Random(RouterHarness.SEED);
        assertThat(harness.random().draws()).containsExactly(
                "nextLong(501)=" + twin.nextLong(501), "nextLong(1001)=" + twin.nextLong(1001));
        assertThat(harness.delays().waits()).containsExactly(Duration.ofMillis(FIRST_WAIT));
        AttemptPlan last = harness.upstreams().plans().getLast();
        assertThat(last.deadline().perTry()).isEqualTo(NS);
        assertThat(last.deadline().totalLeft()).isEqualTo(NS);
        assertThat(last.retriesInGroup()).isEqualTo(1);
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 timeout | last chat/a1 | retries 1 | fallbacks 0 | tried chat[a1:server a1:timeout]");
    }

    @Test
    void eachAttemptGetsItsOwnDeadlineUntilWhatIsLeftOfTheTotalIsShorter() {
        RouterHarness harness = RouterHarness.of(config()
                .deployment("chat", "a1", "timeout: 4", "")
                .router("timeout: 10")
                .router("num_retries: 5"), noJitter());
        harness.upstreams().always("a1", Step.timesOut());

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@4000 ended chat/a1 timeout after 4000ms",
                "@4000 failed chat/a1 timeout",
                "@4000 retry chat/a1 timeout wait 0ms",
                "@4000 attempt chat/a1 #1",
                "@8000 ended chat/a1 timeout after 4000ms",
                "@8000 failed chat/a1 timeout",
                "@8000 retry chat/a1 timeout wait 0ms",
                "@8000 attempt chat/a1 #2",
                "@10000 ended chat/a1 timeout after 2000ms",
                "@10000 failed chat/a1 timeout");
        assertThat(harness.upstreams().plans()).extracting(plan -> plan.deadline().perTry())
                .containsExactly(Duration.ofSeconds(4), Duration.ofSeconds(4), Duration.ofSeconds(2));
        assertThat(harness.upstreams().plans()).extracting(plan -> plan.deadline().totalLeft())
                .containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(6), Duration.ofSeconds(2));
        assertThat(OutcomeLine.of(outcome)).isEqualTo("failure chat/a1 timeout | last chat/a1 | retries 2 | fallbacks 0"
                + " | tried chat[a1:timeout a1:timeout a1:timeout]");
    }

    @Test
    void theCallersTimeoutReplacesTheConfiguredTotalButNotTheDeploymentsOwnDeadline() {
        RouterHarness harness = RouterHarness.of(config()
                .deployment("chat", "a1", "timeout: 4", "")
                .router("timeout: 10"), noJitter());
        harness.upstreams().script("a1", Step.timesOut(), Step.timesOut());

        RouteOutcome<String> outcome = harness.route("chat",
                CallerOverrides.builder().timeout(Optional.of(Duration.ofSeconds(5))).build());

        assertThat(harness.upstreams().plans()).extracting(plan -> plan.deadline().perTry())
                .containsExactly(Duration.ofSeconds(4), Duration.ofSeconds(1));
        assertThat(harness.time().elapsed()).isEqualTo(Duration.ofSeconds(5));
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 timeout | last chat/a1 | retries 1 | fallbacks 0 | tried chat[a1:timeout a1:timeout]");
    }

    private RouteOutcome<String> routeWithin(Duration total) {
        return harness.route("chat", CallerOverrides.builder().timeout(Optional.of(total)).build());
    }

    /** Waits of nothing: what moves the time in these tests is the attempts alone. */
    static Backoff noJitter() {
        return new Backoff(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(60));
    }
}
