package dev.sluice.ops.overload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Shedding starts at 85 % of the heap left after a full collection and stops at 70 %, not in between. */
class HeapPressureTest {
    private static final long HEAP = 1_000_000;

    @Test
    void shedsAtTheBoundAndNotJustUnderIt() {
        HeapPressure pressure = new HeapPressure(HEAP, () -> 0L);

        pressure.afterFullCollection(849_999);
        assertThat(pressure.shedding()).isFalse();

        pressure.afterFullCollection(850_000);
        assertThat(pressure.shedding()).isTrue();
    }

    @Test
    void keepsSheddingUntilACollectionLeavesSeventyPercentOrLess() {
        HeapPressure pressure = new HeapPressure(HEAP, () -> 0L);
        pressure.afterFullCollection(900_000);

        pressure.afterFullCollection(700_001);
        assertThat(pressure.shedding()).isTrue();

        pressure.afterFullCollection(700_000);
        assertThat(pressure.shedding()).isFalse();

        pressure.afterFullCollection(800_000); // between the two bounds: stays as it is
        assertThat(pressure.shedding()).isFalse();
    }

    @Test
    void aRefusalIsA503WithRetryAfter() {
        assertThat(HeapPressure.refusal().status()).isEqualTo(503);
        assertThat(HeapPressure.refusal().code()).isEqualTo("server_overloaded");
        assertThat(HeapPressure.refusal().headers()).containsKey("Retry-After");
    }
}
