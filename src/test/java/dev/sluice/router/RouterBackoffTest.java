package dev.sluice.router;

import static dev.sluice.router.harness.ConfigText.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import dev.sluice.router.harness.OutcomeLine;
import dev.sluice.router.harness.RouterHarness;
import dev.sluice.router.harness.Step;
import dev.sluice.time.Backoff;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The wait before a repeat in place: full jitter under a ceiling that doubles with each
 * repeat of the same deployment, up to the maximum; a sibling failover never waits.
 */
class RouterBackoffTest {

    @Test
    void eachRepeatWaitsAJitteredDrawUnderACeilingThatDoubles() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1").router("num_retries: 3"));
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER), Step.fails(FailureClass.SERVER),
                Step.fails(FailureClass.SERVER), Step.serves());
        Random twin = new Random(RouterHarness.SEED);
        long w0 = twin.nextLong(501);
        long w1 = twin.nextLong(1001);
        long w2 = twin.nextLong(2001);

        RouteOutcome<String> outcome = harness.route("chat");

        assertThat(harness.random().draws()).containsExactly(
                "nextLong(501)=" + w0, "nextLong(1001)=" + w1, "nextLong(2001)=" + w2);
        assertThat(harness.delays().waits()).containsExactly(Duration.ofMillis(w0), Duration.ofMillis(w1), Duration.ofMillis(w2));
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 retry chat/a1 server wait " + w0 + "ms",
                "@" + w0 + " attempt chat/a1 #1",
                "@" + w0 + " ended chat/a1 server after 0ms",
                "@" + w0 + " failed chat/a1 server 500",
                "@" + w0 + " retry chat/a1 server wait " + w1 + "ms",
                "@" + (w0 + w1) + " attempt chat/a1 #2",
                "@" + (w0 + w1) + " ended chat/a1 server after 0ms",
                "@" + (w0 + w1) + " failed chat/a1 server 500",
                "@" + (w0 + w1) + " retry chat/a1 server wait " + w2 + "ms",
                "@" + (w0 + w1 + w2) + " attempt chat/a1 #3",
                "@" + (w0 + w1 + w2) + " ended chat/a1 served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo("served by a1 | last chat/a1 | retries 3 | fallbacks 0"
                + " | tried chat[a1:server a1:server a1:server a1:served]");
    }

    @Test
    void theCeilingStopsGrowingAtTheMaximum() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1").router("num_retries: 4"),
                new Backoff(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(60)));
        harness.upstreams().script("a1", Step.fails(FailureClass.TRANSPORT), Step.fails(FailureClass.TRANSPORT),
                Step.fails(FailureClass.TRANSPORT), Step.fails(FailureClass.TRANSPORT), Step.serves());
        Random twin = new Random(RouterHarness.SEED);

        harness.route("chat");

        // 500 ms, then 1 s, then 1 s again rather than 2 s and 4 s.
        assertThat(harness.random().draws()).containsExactly(
                "nextLong(501)=" + twin.nextLong(501), "nextLong(1001)=" + twin.nextLong(1001),
                "nextLong(1001)=" + twin.nextLong(1001), "nextLong(1001)=" + twin.nextLong(1001));
        assertThat(harness.delays().waits()).allSatisfy(wait -> assertThat(wait).isLessThanOrEqualTo(Duration.ofSeconds(1)));
    }

    @Test
    void aFailoverToAnUntriedSiblingDrawsNothingAndWaitsNothing() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2").router("num_retries: 3"));
        harness.upstreams().always("a1", Step.fails(FailureClass.SERVER)).always("a2", Step.fails(FailureClass.SERVER));
        Random twin = new Random(RouterHarness.SEED);
        long w0 = twin.nextLong(501);
        long w1 = twin.nextLong(1001);

        RouteOutcome<String> outcome = harness.route("chat");

        // a2's failure leaves no untried sibling: a1 (the first in order) is repeated, and its
        // repeat count, not the request's, grows the ceiling.
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@0 ended chat/a1 server after 0ms",
                "@0 failed chat/a1 server 500",
                "@0 failover chat/a1 server",
                "@0 attempt chat/a2 #1",
                "@0 ended chat/a2 server after 0ms",
                "@0 failed chat/a2 server 500",
                "@0 retry chat/a1 server wait " + w0 + "ms",
                "@" + w0 + " attempt chat/a1 #2",
                "@" + w0 + " ended chat/a1 server after 0ms",
                "@" + w0 + " failed chat/a1 server 500",
                "@" + w0 + " retry chat/a1 server wait " + w1 + "ms",
                "@" + (w0 + w1) + " attempt chat/a1 #3",
                "@" + (w0 + w1) + " ended chat/a1 server after 0ms",
                "@" + (w0 + w1) + " failed chat/a1 server 500");
        assertThat(harness.random().draws()).containsExactly("nextLong(501)=" + w0, "nextLong(1001)=" + w1);
        assertThat(OutcomeLine.of(outcome)).isEqualTo("failure chat/a1 server 500 | last chat/a1 | retries 3 | fallbacks 0"
                + " | tried chat[a1:server a2:server a1:server a1:server]");
    }
}
