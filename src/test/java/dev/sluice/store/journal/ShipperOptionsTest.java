package dev.sluice.store.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The shipper's options: their defaults, the retry schedule, and each rule on either side. */
class ShipperOptionsTest {
    static final ShipperOptions DEFAULTS = ShipperOptions.DEFAULTS;

    @Test
    void theDefaultsAreTheDocumentedNumbers() {
        assertThat(DEFAULTS).isEqualTo(new ShipperOptions(1000, Duration.ofMillis(50), Duration.ofMillis(250),
                Duration.ofSeconds(5), Duration.ofSeconds(10)));
    }

    @Test
    void retriesWaitFrom250MsDoublingTo5Seconds() {
        assertThat(DEFAULTS.retryDelay(1)).isEqualTo(Duration.ofMillis(250));
        assertThat(DEFAULTS.retryDelay(2)).isEqualTo(Duration.ofMillis(500));
        assertThat(DEFAULTS.retryDelay(3)).isEqualTo(Duration.ofSeconds(1));
        assertThat(DEFAULTS.retryDelay(5)).isEqualTo(Duration.ofSeconds(4));
        assertThat(DEFAULTS.retryDelay(6)).isEqualTo(Duration.ofSeconds(5));
        assertThat(DEFAULTS.retryDelay(7)).isEqualTo(Duration.ofSeconds(5));
        assertThat(DEFAULTS.retryDelay(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void eachOptionIsCheckedOnEitherSideOfItsRule() {
        assertThat(DEFAULTS.withMaxBatchRows(1).maxBatchRows()).isEqualTo(1);
        assertThatThrownBy(() -> DEFAULTS.withMaxBatchRows(0)).hasMessage("maxBatchRows: 0 (expected: >= 1)");

        assertThat(DEFAULTS.withGatherWait(Duration.ofNanos(1)).gatherWait()).isEqualTo(Duration.ofNanos(1));
        assertThatThrownBy(() -> DEFAULTS.withGatherWait(Duration.ZERO)).hasMessage("gatherWait: PT0S (expected: > 0)");

        assertThat(DEFAULTS.withRetry(Duration.ofSeconds(1), Duration.ofSeconds(1)).retryDelay(9))
                .isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> DEFAULTS.withRetry(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessage("retryMax: PT1S (expected: >= retryInitial, PT2S)");
        assertThatThrownBy(() -> DEFAULTS.withRetry(Duration.ofMillis(-1), Duration.ofSeconds(1)))
                .hasMessage("retryInitial: PT-0.001S (expected: > 0)");

        assertThat(DEFAULTS.withCloseTimeout(Duration.ZERO).closeTimeout()).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> DEFAULTS.withCloseTimeout(Duration.ofMillis(-1)))
                .hasMessage("closeTimeout: PT-0.001S (expected: >= 0)");
    }

    @Test
    void thePauseAfterAFailedPostCountsThePostsOwnWaitAndIsNeverBelowTheFirstDelay() {
        // The tenth failure backs off 5 s: a post that failed at once waits all of it...
        assertThat(DEFAULTS.retryPause(10, Duration.ZERO)).isEqualTo(Duration.ofSeconds(5));
        // ...one that waited out a 2 s connection timeout, the 3 s left...
        assertThat(DEFAULTS.retryPause(10, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(3));
        // ...and one that waited 5 s or more, no less than the first delay.
        assertThat(DEFAULTS.retryPause(10, Duration.ofMillis(4750))).isEqualTo(Duration.ofMillis(250));
        assertThat(DEFAULTS.retryPause(10, Duration.ofMillis(4751))).isEqualTo(Duration.ofMillis(250));
        assertThat(DEFAULTS.retryPause(10, Duration.ofMillis(4749))).isEqualTo(Duration.ofMillis(251));
        assertThat(DEFAULTS.retryPause(10, Duration.ofSeconds(5))).isEqualTo(Duration.ofMillis(250));
    }
}
