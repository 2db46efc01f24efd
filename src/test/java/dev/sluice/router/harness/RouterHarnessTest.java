package dev.sluice.router.harness;

import dev.sluice.failure.FailureClass;
import dev.sluice.testing.FakeTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import static dev.sluice.router.harness.ConfigText.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The harness's own parts keep their promises, so a router test that passes means what it says. */
class RouterHarnessTest {

    @Test
    void theClockAndTheTickerMoveTogetherAndOnlyWhenTold() {
        FakeTime time = new FakeTime();
        long ticker = time.ticker().getAsLong();
        Instant clock = time.clock().instant();

        assertThat(time.ticker().getAsLong()).isEqualTo(ticker);
        assertThat(time.clock().instant()).isEqualTo(clock).isEqualTo(FakeTime.START);

        time.advance(Duration.ofMillis(1500).plusNanos(1));

        assertThat(time.ticker().getAsLong() - ticker).isEqualTo(1_500_000_001L);
        assertThat(time.clock().instant()).isEqualTo(FakeTime.START.plusNanos(1_500_000_001L));
        assertThat(time.clock().withZone(java.time.ZoneId.of("Europe/Paris")).instant()).isEqualTo(time.now());
        assertThat(time.stamp()).isEqualTo("1500.000001");
    }

    @Test
    void timeNeverRunsBack() {
        FakeTime time = new FakeTime();
        time.advance(Duration.ofSeconds(2));

        assertThatThrownBy(() -> time.advance(Duration.ofNanos(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> time.advanceTo(Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aWaitMovesTheTimeByItselfAndIsKept() {
        FakeTime time = new FakeTime();
        FakeDelays delays = new FakeDelays(time);

        assertThat(delays.after(Duration.ofMillis(250)).succeeded()).isTrue();

        assertThat(time.elapsed()).isEqualTo(Duration.ofMillis(250));
        assertThat(delays.waits()).containsExactly(Duration.ofMillis(250));
    }

    @Test
    void theSameSeedDrawsTheSameValuesAsATwinRandom() {
        SeededRandom random = new SeededRandom(RouterHarness.SEED);
        java.util.Random twin = new java.util.Random(RouterHarness.SEED);

        long drawn = random.nextLong(501);

        assertThat(drawn).isEqualTo(twin.nextLong(501));
        assertThat(random.draws()).containsExactly("nextLong(501)=" + drawn);
    }

    @Test
    void anAttemptOnADeploymentWithNothingScriptedFailsTheTest() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1", "a2"));
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER));

        assertThatThrownBy(() -> harness.route("chat"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("deployment 'a2' was called");
    }

    @Test
    void anUnscriptedRepeatFailsTheTestToo() {
        RouterHarness harness = RouterHarness.of(config().group("chat", "a1"));
        harness.upstreams().script("a1", Step.fails(FailureClass.SERVER));

        // The repeat is made after a wait, inside the composed future: its error still reaches the test.
        assertThatThrownBy(() -> harness.route("chat"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("deployment 'a1' was called");
    }

    @Test
    void aTimeoutStepTakesItsAttemptsWholeDeadline() {
        RouterHarness harness = RouterHarness.of(config().deployment("chat", "a1", "timeout: 3", "").router("num_retries: 0"));
        harness.upstreams().script("a1", Step.timesOut());

        harness.route("chat");

        assertThat(harness.time().elapsed()).isEqualTo(Duration.ofSeconds(3));
        assertThat(harness.events().lines()).containsExactly(
                "@0 attempt chat/a1 #0",
                "@3000 ended chat/a1 timeout after 3000ms",
                "@3000 failed chat/a1 timeout");
    }
}
