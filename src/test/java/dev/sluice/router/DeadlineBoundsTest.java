package dev.sluice.router;

import static dev.sluice.router.harness.ConfigText.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.config.SluiceConfig;
import dev.sluice.router.harness.ConfigText;
import dev.sluice.testing.FakeTime;
import dev.sluice.vendors.Providers;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every bound a {@link Deadline} gives, met on both sides over a fake ticker: the total, an
 * attempt's own deadline and its cut to what is left, a stream's waits and the keep-alive.
 */
class DeadlineBoundsTest {
    static final Duration NS = Duration.ofNanos(1);
    static final Duration TEN = Duration.ofSeconds(10);

    final FakeTime time = new FakeTime();

    @Test
    void theTotalRunsOutExactlyAtItsEnd() {
        Deadline deadline = start(config().group("chat", "a1").router("timeout: 10"), TEN);

        time.advance(TEN.minus(NS));
        assertThat(deadline.left()).isEqualTo(NS);
        assertThat(deadline.passed()).isFalse();

        time.advance(NS);
        assertThat(deadline.left()).isZero();
        assertThat(deadline.passed()).isTrue();

        time.advance(NS);
        assertThat(deadline.left()).isEqualTo(NS.negated());
        assertThat(deadline.passed()).isTrue();
    }

    @Test
    void withoutTheCallersTimeoutTheTotalIsTheRouters() {
        Deadline deadline = Deadline.start(time.source(), Optional.empty(),
                parse(config().group("chat", "a1").router("timeout: 10")).router());

        assertThat(deadline.left()).isEqualTo(TEN);
    }

    @Test
    void theCallersTimeoutReplacesTheRoutersAsTheTotal() {
        Deadline deadline = start(config().group("chat", "a1").router("timeout: 10"), Duration.ofSeconds(12));

        assertThat(deadline.left()).isEqualTo(Duration.ofSeconds(12));
    }

    @Test
    void anAttemptKeepsItsOwnDeadlineUntilWhatIsLeftOfTheTotalIsShorter() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 4", "").router("timeout: 10");
        Deadline deadline = start(config, TEN);
        Deployment a1 = deployment(config);

        time.advanceTo(Duration.ofSeconds(6).minus(NS));
        assertThat(deadline.attempt(a1).perTry()).isEqualTo(Duration.ofSeconds(4));
        assertThat(deadline.attempt(a1).totalLeft()).isEqualTo(Duration.ofSeconds(4).plus(NS));

        time.advanceTo(Duration.ofSeconds(6));
        assertThat(deadline.attempt(a1).perTry()).isEqualTo(Duration.ofSeconds(4));

        time.advanceTo(Duration.ofSeconds(6).plus(NS));
        assertThat(deadline.attempt(a1).perTry()).isEqualTo(Duration.ofSeconds(4).minus(NS));
        assertThat(deadline.attempt(a1).own()).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void anAttemptIsFixedWhenItStarts() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 4", "").router("timeout: 10");
        Deadline deadline = start(config, TEN);
        Deadline.Attempt attempt = deadline.attempt(deployment(config));

        time.advance(Duration.ofSeconds(9));

        assertThat(attempt.perTry()).isEqualTo(Duration.ofSeconds(4));
        assertThat(attempt.totalLeft()).isEqualTo(TEN);
    }

    @Test
    void aDeploymentsOwnTimeoutShorterThanTheRoutersIsItsDeadline() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 9", "").router("timeout: 10");

        assertThat(own(config)).isEqualTo(Duration.ofSeconds(9));
        assertThat(start(config, TEN).attempt(deployment(config)).perTry()).isEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void aDeploymentsOwnTimeoutEqualToTheRoutersIsItsDeadline() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 10", "").router("timeout: 10");

        assertThat(own(config)).isEqualTo(TEN);
    }

    @Test
    void aDeploymentsOwnTimeoutLongerThanTheRoutersIsCutToIt() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 11", "").router("timeout: 10");

        assertThat(own(config)).isEqualTo(TEN);
        assertThat(start(config, TEN).attempt(deployment(config)).perTry()).isEqualTo(TEN);
    }

    @Test
    void aDeploymentWithoutItsOwnTimeoutTakesTheRouters() {
        ConfigText config = config().group("chat", "a1").router("timeout: 10");

        assertThat(own(config)).isEqualTo(TEN);
    }

    @Test
    void theCallersShorterTotalCutsTheAttemptButNotTheDeploymentsOwnDeadline() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 4", "").router("timeout: 10");
        Deadline deadline = start(config, Duration.ofSeconds(3));

        Deadline.Attempt attempt = deadline.attempt(deployment(config));

        assertThat(attempt.own()).isEqualTo(Duration.ofSeconds(4));
        assertThat(attempt.perTry()).isEqualTo(Duration.ofSeconds(3));
        assertThat(attempt.betweenChunks()).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void withoutAStreamTimeoutAStreamWaitsAsAWholeAnswerDoesAndItsChunksTakeTheOwnDeadline() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 4", "").router("timeout: 10");
        Deadline deadline = start(config, TEN);
        time.advanceTo(Duration.ofSeconds(7));

        Deadline.Attempt attempt = deadline.attempt(deployment(config));

        assertThat(attempt.streamTimeout()).isEmpty();
        assertThat(attempt.upstream(true)).isEqualTo(Duration.ofSeconds(3));
        assertThat(attempt.upstream(false)).isEqualTo(Duration.ofSeconds(3));
        // What is left of the total bounds only the wait for the first event, not the gaps after it.
        assertThat(attempt.betweenChunks()).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void aStreamTimeoutBoundsTheStreamsHeadAndItsChunksButNotAWholeAnswer() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 4, stream_timeout: 2", "").router("timeout: 10");

        Deadline.Attempt attempt = start(config, TEN).attempt(deployment(config));

        assertThat(attempt.upstream(true)).isEqualTo(Duration.ofSeconds(2));
        assertThat(attempt.upstream(false)).isEqualTo(Duration.ofSeconds(4));
        assertThat(attempt.betweenChunks()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aStreamTimeoutLongerThanTheOwnDeadlineStillBoundsTheStream() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 4, stream_timeout: 6", "").router("timeout: 10");

        Deadline.Attempt attempt = start(config, TEN).attempt(deployment(config));

        assertThat(attempt.upstream(true)).isEqualTo(Duration.ofSeconds(6));
        assertThat(attempt.betweenChunks()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void aStreamsHeadIsCutToWhatIsLeftOfTheTotalOnBothSidesOfItsStreamTimeout() {
        ConfigText config = config().deployment("chat", "a1", "stream_timeout: 3", "").router("timeout: 10");
        Deadline deadline = start(config, TEN);
        Deployment a1 = deployment(config);

        time.advanceTo(Duration.ofSeconds(7).minus(NS));
        assertThat(deadline.attempt(a1).upstream(true)).isEqualTo(Duration.ofSeconds(3));

        time.advanceTo(Duration.ofSeconds(7).plus(NS));
        assertThat(deadline.attempt(a1).upstream(true)).isEqualTo(Duration.ofSeconds(3).minus(NS));
        assertThat(deadline.attempt(a1).betweenChunks()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aStreamsFirstEventIsDueWhenWhatWasLeftOfTheTotalHasPassedSinceTheUpstreamWasOpened() {
        ConfigText config = config().deployment("chat", "a1", "timeout: 4", "").router("timeout: 10");
        Deadline deadline = start(config, TEN);
        time.advanceTo(Duration.ofSeconds(7));

        Deadline.Attempt attempt = deadline.attempt(deployment(config));

        assertThat(attempt.firstEventBy(1_000L)).isEqualTo(1_000L + Duration.ofSeconds(3).toNanos());
    }

    @Test
    void theRoutersStreamTimeoutServesADeploymentWithoutItsOwn() {
        ConfigText config = config().group("chat", "a1").router("timeout: 10").router("stream_timeout: 2");

        Deadline.Attempt attempt = start(config, TEN).attempt(deployment(config));

        assertThat(attempt.streamTimeout()).contains(Duration.ofSeconds(2));
        assertThat(attempt.upstream(true)).isEqualTo(Duration.ofSeconds(2));
        assertThat(attempt.betweenChunks()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aDeploymentsStreamTimeoutWinsOverTheRouters() {
        ConfigText config = config().deployment("chat", "a1", "stream_timeout: 3", "").router("timeout: 10")
                .router("stream_timeout: 2");

        assertThat(start(config, TEN).attempt(deployment(config)).betweenChunks()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void theKeepAliveIsHalfTheWaitBetweenChunksBelowTenSeconds() {
        assertThat(keepAliveFor("stream_timeout: 9")).isEqualTo(Duration.ofMillis(4500));
    }

    @Test
    void theKeepAliveIsFiveSecondsAtTenSecondsBetweenChunks() {
        assertThat(keepAliveFor("stream_timeout: 10")).isEqualTo(Deadline.MAX_KEEP_ALIVE);
    }

    @Test
    void theKeepAliveStaysAtFiveSecondsAboveTenSecondsBetweenChunks() {
        assertThat(keepAliveFor("stream_timeout: 11")).isEqualTo(Deadline.MAX_KEEP_ALIVE);
    }

    @Test
    void withoutAStreamTimeoutTheKeepAliveIsHalfTheOwnDeadline() {
        assertThat(keepAliveFor("timeout: 8")).isEqualTo(Duration.ofSeconds(4));
    }

    private Duration keepAliveFor(String params) {
        ConfigText config = config().deployment("chat", "a1", params, "").router("timeout: 30");
        return start(config, Duration.ofSeconds(30)).attempt(deployment(config)).keepAlive();
    }

    private Deadline start(ConfigText config, Duration total) {
        return Deadline.start(time.source(), Optional.of(total), parse(config).router());
    }

    private static Duration own(ConfigText config) {
        SluiceConfig parsed = parse(config);
        return Deadline.own(parsed.router(), parsed.deployments().getFirst());
    }

    private static Deployment deployment(ConfigText config) {
        return parse(config).deployments().getFirst();
    }

    private static SluiceConfig parse(ConfigText config) {
        try {
            return ConfigLoader.parse(config.yaml(), Map.of(), Providers.knownPrefixes());
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.problems() + " in:\n" + config.yaml(), e);
        }
    }
}
