package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class CallIdsTest {
    private static final long T = 1_796_000_000_000L; // 2026-12-01, in epoch milliseconds

    @Test
    void aNewIdIsAVersionSevenUuidCarryingItsMillisecond() {
        UUID id = UUID.fromString(CallIds.timeOrdered(T));

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(T);
    }

    @Test
    void idsOfLaterMillisecondsSortAfterEarlierOnesAsText() {
        String earlier = CallIds.timeOrdered(T);
        String later = CallIds.timeOrdered(T + 1);

        assertThat(later).isGreaterThan(earlier);
        assertThat(CallIds.timeOrdered(T + 86_400_000L)).isGreaterThan(later);
    }

    @Test
    void idsOfOneMillisecondDiffer() {
        assertThat(CallIds.timeOrdered(T)).isNotEqualTo(CallIds.timeOrdered(T));
    }
}
