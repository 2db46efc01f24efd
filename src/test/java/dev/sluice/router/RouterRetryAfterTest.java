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
 * An upstream's {@code Retry-After}: waited for when it is longer than the jitter and fits in
 * what is left of the total deadline; the group ends rather than wait past the deadline; and a
 * deployment asking for more than the backoff honours is not repeated at all.
 */
class RouterRetryAfterTest {
    static final Duration NS = Duration.ofNanos(1);
    static final long FIRST_WAIT = new Random(RouterHarness.SEED).nextLong(501);

    @Test
    void aRetryAfterLongerThanTheJitterIsWaitedFor() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1"));
        harness.upstreams().script("a1", Step.rateLimited(Duration.ofSeconds(2)), Step.serves());

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 rate_limited after 0ms",
                "@0 failed chat/a1 rate_limited 429 retry-after 2000ms",
                "@0 retry chat/a1 rate_limited wait 2000ms",
                "@2000 attempt chat/a1 #1",
                "@2000 ended chat/a1 served after 0ms");
        assertThat(harness.random().draws()).containsExactly("nextLong(501)=" + FIRST_WAIT);
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "served by a1 | last chat/a1 | retries 1 | fallbacks 0 | tried chat[a1:rate_limited a1:served]");
    }

    @Test
    void aRetryAfterShorterThanTheJitterIsOutwaitedByIt() {
        assertThat(firstWaitFor(Duration.ofMillis(FIRST_WAIT - 1))).isEqualTo(Duration.ofMillis(FIRST_WAIT));
        assertThat(firstWaitFor(Duration.ofMillis(FIRST_WAIT))).isEqualTo(Duration.ofMillis(FIRST_WAIT));
        assertThat(firstWaitFor(Duration.ofMillis(FIRST_WAIT + 1))).isEqualTo(Duration.ofMillis(FIRST_WAIT + 1));
    }

    @Test
    void aRetryAfterEndingJustBeforeTheDeadlineIsWaitedFor() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1"));
        harness.upstreams().script("a1", Step.rateLimited(Duration.ofSeconds(2).minus(NS)).after(Duration.ofSeconds(1)),
                Step.serves());

        RouteOutcome<String> outcome = harness.route("chat", within(Duration.ofSeconds(3)));

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@1000 ended chat/a1 rate_limited after 1000ms",
                "@1000 failed chat/a1 rate_limited 429 retry-after 1999.999999ms",
                "@1000 retry chat/a1 rate_limited wait 1999ms",
                "@2999.999999 attempt chat/a1 #1",
                "@2999.999999 ended chat/a1 served after 0ms");
        assertThat(harness.upstreams().plans().getLast().deadline().perTry()).isEqualTo(NS);
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "served by a1 | last chat/a1 | retries 1 | fallbacks 0 | tried chat[a1:rate_limited a1:served]");
    }

    @Test
    void aRetryAfterEndingExactlyAtTheDeadlineEndsTheGroupAndItFallsBack() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1").group("g2", "b1").router("fallbacks: [{chat: [g2]}]"));
        harness.upstreams().script("a1", Step.rateLimited(Duration.ofSeconds(2)).after(Duration.ofSeconds(1)));
        harness.upstreams().script("b1", Step.serves());

        RouteOutcome<String> outcome = harness.route("chat", within(Duration.ofSeconds(3)));

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@1000 ended chat/a1 rate_limited after 1000ms",
                "@1000 failed chat/a1 rate_limited 429 retry-after 2000ms",
                "@1000 fallback chat->g2 rate_limited",
                "@1000 attempt g2/b1 #0",
                "@1000 ended g2/b1 served after 0ms");
        assertThat(harness.delays().waits()).isEmpty();
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "served by b1 | last g2/b1 | retries 0 | fallbacks 1 | tried chat[a1:rate_limited] g2[b1:served]");
    }

    @Test
    void aRetryAfterEndingJustAfterTheDeadlineEndsTheGroup() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1"));
        harness.upstreams().script("a1", Step.rateLimited(Duration.ofSeconds(2).plus(NS)).after(Duration.ofSeconds(1)));

        RouteOutcome<String> outcome = harness.route("chat", within(Duration.ofSeconds(3)));

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@1000 ended chat/a1 rate_limited after 1000ms",
                "@1000 failed chat/a1 rate_limited 429 retry-after 2000.000001ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 rate_limited 429 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:rate_limited]");
    }

    @Test
    void aRetryAfterOfExactlyTheMostTheBackoffHonoursIsWaitedFor() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1"));
        harness.upstreams().script("a1", Step.rateLimited(Backoff.DEFAULT.maxRetryAfter()), Step.serves());

        harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 rate_limited after 0ms",
                "@0 failed chat/a1 rate_limited 429 retry-after 60000ms",
                "@0 retry chat/a1 rate_limited wait 60000ms",
                "@60000 attempt chat/a1 #1",
                "@60000 ended chat/a1 served after 0ms");
    }

    @Test
    void aRetryAfterAboveTheMostTheBackoffHonoursIsNotRepeated() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1"));
        harness.upstreams().script("a1", Step.rateLimited(Backoff.DEFAULT.maxRetryAfter().plus(NS)));

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 rate_limited after 0ms",
                "@0 failed chat/a1 rate_limited 429 retry-after 60000.000001ms");
        assertThat(harness.random().draws()).isEmpty();
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "failure chat/a1 rate_limited 429 | last chat/a1 | retries 0 | fallbacks 0 | tried chat[a1:rate_limited]");
    }

    @Test
    void aDeploymentAskingTooLongIsLeftOutOfRepeatsWhileItsSiblingIsRepeated() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2"));
        harness.upstreams().script("a1", Step.rateLimited(Duration.ofSeconds(61)));
        harness.upstreams().script("a2", Step.fails(FailureClass.SERVER), Step.serves());

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 rate_limited after 0ms",
                "@0 failed chat/a1 rate_limited 429 retry-after 61000ms",
                "@0 bench chat/a1 rate_limited until @61000",
                "@0 failover chat/a1 rate_limited",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 server after 0ms",
                "@0 failed chat/a2 server 500",
                "@0 retry chat/a2 server wait " + FIRST_WAIT + "ms",
                "@" + FIRST_WAIT + " attempt chat/a2 #2",
                "@" + FIRST_WAIT + " ended chat/a2 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by a2 | last chat/a2 | retries 2 | fallbacks 0"
                + " | tried chat[a1:rate_limited a2:server a2:served]");
    }

    /** The wait before the first repeat of a 429 carrying {@code retryAfter}, on a fresh harness. */
    private static Duration firstWaitFor(Duration retryAfter) {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1"));
        harness.upstreams().script("a1", Step.fails(FailureClass.RATE_LIMITED, retryAfter), Step.serves());
        harness.route("chat");
        return harness.delays().waits().getFirst();
    }

    private static CallerOverrides within(Duration total) {
        return CallerOverrides.builder().timeout(Optional.of(total)).build();
    }
}
