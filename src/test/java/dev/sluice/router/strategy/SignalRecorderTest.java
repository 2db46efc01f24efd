package dev.sluice.router.strategy;

import static dev.sluice.router.strategy.Candidates.group;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Deployment;
import dev.sluice.router.signals.RoutingSignals;
import dev.sluice.router.signals.UsageWindows.Usage;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SignalRecorderTest {
    static final Duration TTL = LatencyArgs.DEFAULTS.ttl();

    final FakeClock clock = new FakeClock();
    final RoutingSignals signals = RoutingSignals.inMemory();
    final SignalRecorder recorder = new SignalRecorder(signals, new LatencyArgs(TTL, 0, 3), clock);
    Deployment d0;
    Deployment d1;

    @BeforeEach
    void group2() throws Exception {
        List<Deployment> group = group("", "");
        d0 = group.get(0);
        d1 = group.get(1);
    }

    private List<Double> samples(Deployment d, boolean stream) {
        return signals.latency().recent(d.id(), LatencyBasedStrategy.series(stream), clock.instant(), TTL);
    }

    @Test
    void anAttemptIsOpenFromItsStartToItsEnd() {
        SignalRecorder.Attempt first = recorder.attemptStarted(d0);
        SignalRecorder.Attempt second = recorder.attemptStarted(d0);

        assertThat(signals.inFlight().count("d0")).isEqualTo(2);
        assertThat(first.end()).isTrue();
        assertThat(signals.inFlight().count("d0")).isEqualTo(1);
        assertThat(second.end()).isTrue();
        assertThat(signals.inFlight().count("d0")).isZero();
    }

    @Test
    void endingAnAttemptTwiceLowersTheCountOnce() {
        recorder.attemptStarted(d0);
        SignalRecorder.Attempt attempt = recorder.attemptStarted(d0);

        attempt.end();
        assertThat(attempt.end()).isFalse();

        assertThat(signals.inFlight().count("d0")).isEqualTo(1);
    }

    @Test
    void aClaimCountsAsOneOfThisMinutesRequestsAndAStartedAttemptDoesNot() {
        recorder.claim(d0, 10, false);
        recorder.attemptStarted(d0).end();
        recorder.claim(d0, 10, true);

        assertThat(signals.usage().current("d0", clock.instant())).isEqualTo(new Usage(2, 0));
    }

    @Test
    void aServedAnswerAddsItsTokensToThisMinute() {
        recorder.claim(d0, 10, false);
        recorder.served(d0, 1200, Duration.ofSeconds(2), 200, false);

        assertThat(signals.usage().current("d0", clock.instant())).isEqualTo(new Usage(1, 1200));
        assertThat(signals.usage().current("d1", clock.instant())).isEqualTo(Usage.NONE);
    }

    @Test
    void withinLimitsAClaimTakesTheLastRequestOfTheRpmAndNotOneMore() throws Exception {
        Deployment limited = group("rpm: 2").getFirst();

        assertThat(claimed(limited, 0, true)).isTrue();
        assertThat(claimed(limited, 0, true)).as("the second of rpm 2").isTrue();
        assertThat(claimed(limited, 0, true)).as("a third").isFalse();
        assertThat(signals.usage().current(limited.id(), clock.instant()).requests()).isEqualTo(2);

        assertThat(claimed(limited, 0, false)).as("rpm as a weight only").isTrue();
        clock.advance(Duration.ofMinutes(1));
        assertThat(claimed(limited, 0, true)).as("the next minute").isTrue();
    }

    @Test
    void withinLimitsAClaimFitsWhenTheMinutesTokensPlusThePromptReachTheTpmExactly() throws Exception {
        Deployment limited = group("tpm: 1000").getFirst();
        recorder.served(limited, 900, Duration.ofSeconds(1), 10, false);

        assertThat(claimed(limited, 101, true)).as("900 + 101 > 1000").isFalse();
        assertThat(claimed(limited, 100, true)).as("900 + 100 = 1000").isTrue();
    }

    private boolean claimed(Deployment deployment, int promptTokens, boolean withinLimits) {
        return recorder.claim(deployment, promptTokens, withinLimits).result();
    }

    @Test
    void aWholeAnswersSampleIsSecondsPerOutputToken() {
        recorder.served(d0, 0, Duration.ofSeconds(2), 200, false);

        assertThat(samples(d0, false)).containsExactly(0.01);
        assertThat(samples(d0, true)).isEmpty();
    }

    @Test
    void anAnswerWithoutOutputTokensCountsAsOneTokenRatherThanDividingByZero() {
        recorder.served(d0, 0, Duration.ofMillis(1500), 0, false);

        assertThat(samples(d0, false)).containsExactly(1.5);
    }

    @Test
    void aStreamsSampleIsTheTimeToItsFirstEvent() {
        recorder.served(d0, 0, Duration.ofMillis(250), 400, true);

        assertThat(samples(d0, true)).containsExactly(0.25);
        assertThat(samples(d0, false)).isEmpty();
    }

    @Test
    void aTimeoutAddsThePenaltyToBothSeries() {
        recorder.timedOut(d0);

        assertThat(samples(d0, false)).containsExactly(LatencyBasedStrategy.TIMEOUT_PENALTY_SECONDS);
        assertThat(samples(d0, true)).containsExactly(LatencyBasedStrategy.TIMEOUT_PENALTY_SECONDS);
        assertThat(LatencyBasedStrategy.TIMEOUT_PENALTY_SECONDS).isEqualTo(1000.0);
    }

    @Test
    void samplesAreKeptUpToMaxLatencyListSize() {
        for (int i = 1; i <= 4; i++) {
            recorder.served(d0, 0, Duration.ofSeconds(i), 1, false);
        }

        assertThat(samples(d0, false)).containsExactly(2.0, 3.0, 4.0);
    }

    @Test
    void aNegativeDurationIsRecordedAsZero() {
        recorder.served(d0, 0, Duration.ofMillis(-5), 1, false);

        assertThat(samples(d0, false)).containsExactly(0.0);
    }
}
