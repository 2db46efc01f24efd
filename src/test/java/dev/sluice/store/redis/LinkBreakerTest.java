package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.FakeClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the Redis link counts as down and up again: consecutive failures, probes, and backing off a flapping Redis. */
class LinkBreakerTest {
    private static final Duration FIRST = Duration.ofMillis(50);
    private static final Duration LONGEST = Duration.ofMillis(400);
    private static final Duration STABLE = Duration.ofSeconds(10);

    private final FakeClock clock = new FakeClock();
    private final LinkBreaker breaker = new LinkBreaker(clock, FIRST, LONGEST, STABLE);

    private LinkBreaker closed() {
        for (int i = 0; i < LinkBreaker.PROBES_TO_CLOSE; i++) {
            breaker.probeAnswered();
        }
        assertThat(breaker.isOpen()).isFalse();
        return breaker;
    }

    @Test
    void itStartsOpenAndClosesOnlyAfterEnoughProbesInARow() {
        assertThat(breaker.isOpen()).isTrue();
        for (int i = 1; i < LinkBreaker.PROBES_TO_CLOSE; i++) {
            assertThat(breaker.probeAnswered()).as("probe %d", i).isFalse();
        }
        assertThat(breaker.isOpen()).as("one probe short").isTrue();
        assertThat(breaker.probeAnswered()).as("the last probe needed").isTrue();
        assertThat(breaker.isOpen()).isFalse();
    }

    @Test
    void aLostProbeStartsTheProbesAgain() {
        breaker.probeAnswered();
        assertThat(breaker.lost()).as("already open: not a new outage").isFalse();
        for (int i = 1; i < LinkBreaker.PROBES_TO_CLOSE; i++) {
            assertThat(breaker.probeAnswered()).isFalse();
        }
        assertThat(breaker.isOpen()).isTrue();
    }

    @Test
    void oneSlowAnswerIsNotAnOutageButEnoughInARowAre() {
        closed();
        for (int i = 1; i < LinkBreaker.FAILURES_TO_OPEN; i++) {
            assertThat(breaker.unanswered()).as("unanswered call %d", i).isFalse();
        }
        assertThat(breaker.isOpen()).as("one short of opening").isFalse();
        assertThat(breaker.unanswered()).as("the one that opens it").isTrue();
        assertThat(breaker.isOpen()).isTrue();
        assertThat(breaker.unanswered()).as("already open").isFalse();
    }

    @Test
    void anAnswerInBetweenStartsTheCountAgain() {
        closed();
        for (int round = 0; round < 5; round++) {
            for (int i = 1; i < LinkBreaker.FAILURES_TO_OPEN; i++) {
                breaker.unanswered();
            }
            breaker.answered();
        }
        assertThat(breaker.isOpen()).isFalse();
    }

    @Test
    void aLostConnectionOpensItAtOnce() {
        closed();
        assertThat(breaker.lost()).isTrue();
        assertThat(breaker.isOpen()).isTrue();
    }

    @Test
    void retriesDoubleUpToTheLongest() {
        assertThat(breaker.retryWait()).isEqualTo(FIRST);
        assertThat(breaker.retryWait()).isEqualTo(FIRST.multipliedBy(2));
        assertThat(breaker.retryWait()).isEqualTo(FIRST.multipliedBy(4));
        assertThat(breaker.retryWait()).isEqualTo(LONGEST);
        assertThat(breaker.retryWait()).isEqualTo(LONGEST);
    }

    @Test
    void aLinkThatStayedUpLongEnoughRetriesAfreshAndOneThatFlappedKeepsBackingOff() {
        breaker.retryWait();
        breaker.retryWait();
        closed();
        clock.advance(STABLE.minusMillis(1));
        breaker.lost();
        assertThat(breaker.retryWait()).as("up just short of stable: a flap").isEqualTo(FIRST.multipliedBy(4));

        closed();
        clock.advance(STABLE);
        breaker.lost();
        assertThat(breaker.retryWait()).as("up exactly as long as stable").isEqualTo(FIRST);
    }

    @Test
    void aFirstRetryLongerThanTheLongestIsRefused() {
        assertThatThrownBy(() -> new LinkBreaker(clock, LONGEST.plusMillis(1), LONGEST, STABLE))
                .hasMessageContaining("firstRetry");
    }
}
