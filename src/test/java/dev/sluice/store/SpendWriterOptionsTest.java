package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The writer's options: their defaults, their rules, and the retry schedule. */
class SpendWriterOptionsTest {
    static final SpendWriterOptions DEFAULTS = SpendWriterOptions.DEFAULTS;

    @Test
    void theDefaultsAreTheIssuesNumbers() {
        assertThat(DEFAULTS).isEqualTo(new SpendWriterOptions(
                500, Duration.ofMillis(200), 100_000, Duration.ofMillis(250), Duration.ofSeconds(5)));
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

        assertThat(DEFAULTS.withMaxQueuedRows(500).maxQueuedRows()).isEqualTo(500);
        assertThatThrownBy(() -> DEFAULTS.withMaxQueuedRows(499))
                .hasMessage("maxQueuedRows: 499 (expected: >= maxBatchRows, 500)");

        assertThat(DEFAULTS.withFlushInterval(Duration.ofNanos(1)).flushInterval()).isEqualTo(Duration.ofNanos(1));
        assertThatThrownBy(() -> DEFAULTS.withFlushInterval(Duration.ZERO)).hasMessage("flushInterval: PT0S (expected: > 0)");

        assertThat(DEFAULTS.withRetry(Duration.ofSeconds(1), Duration.ofSeconds(1)).retryDelay(9)).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> DEFAULTS.withRetry(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessage("retryMax: PT1S (expected: >= retryInitial, PT2S)");
        assertThatThrownBy(() -> DEFAULTS.withRetry(Duration.ofMillis(-1), Duration.ofSeconds(1)))
                .hasMessage("retryInitial: PT-0.001S (expected: > 0)");
    }
}
