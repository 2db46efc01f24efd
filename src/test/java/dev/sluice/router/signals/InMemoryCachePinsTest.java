package dev.sluice.router.signals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Concurrently;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InMemoryCachePinsTest {
    static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    static final Instant END = T0.plusSeconds(300);
    static final Duration MS = Duration.ofMillis(1);

    final InMemoryCachePins pins = new InMemoryCachePins();

    @Test
    void anUnknownPrefixIsNotPinned() {
        assertThat(pins.pinned("p", T0)).isEmpty();
    }

    @Test
    void aPinHoldsUntilOneMillisecondBeforeItsEnd() {
        pins.pin("p", "a", END);

        assertThat(pins.pinned("p", T0)).contains("a");
        assertThat(pins.pinned("p", END.minus(MS))).contains("a");
    }

    @Test
    void aPinLapsesExactlyAtItsEnd() {
        pins.pin("p", "a", END);

        assertThat(pins.pinned("p", END)).isEmpty();
    }

    @Test
    void aLapsedPinIsRemovedWhenRead() {
        pins.pin("p", "a", END);
        pins.pinned("p", END);

        // Asking again for a moment before the end would find the pin had it been kept.
        assertThat(pins.pinned("p", END.minus(MS))).isEmpty();
        assertThat(pins.size()).isZero();
    }

    @Test
    void theNewestPinForAPrefixWins() {
        pins.pin("p", "a", END);
        pins.pin("p", "b", END.plusSeconds(60));

        assertThat(pins.pinned("p", END)).contains("b");
    }

    @Test
    void pinsAreKeptPerPrefix() {
        pins.pin("p", "a", END);
        pins.pin("q", "b", END);

        assertThat(pins.pinned("p", T0)).contains("a");
        assertThat(pins.pinned("q", T0)).contains("b");
    }

    @Test
    void pinsNeverReadAgainAreSweptOutByLaterReads() {
        for (int i = 0; i < 100; i++) {
            pins.pin("old-" + i, "a", END);
        }
        pins.pin("running", "b", END.plusSeconds(600));

        for (int i = 0; i < InMemoryCachePins.SWEEP_EVERY; i++) {
            pins.pinned("other", END);
        }

        assertThat(pins.size()).isEqualTo(1);
        assertThat(pins.pinned("running", END)).contains("b");
    }

    @Test
    void pinsFromManyThreadsAreAllKept() throws Exception {
        Concurrently.run(8, thread -> {
            for (int i = 0; i < 1000; i++) {
                pins.pin(thread + "-" + i, "d" + thread, END);
            }
        });

        assertThat(pins.size()).isEqualTo(8000);
        assertThat(pins.pinned("7-999", T0)).contains("d7");
    }
}
