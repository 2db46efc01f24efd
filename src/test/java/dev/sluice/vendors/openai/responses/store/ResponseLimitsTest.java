package dev.sluice.vendors.openai.responses.store;

import static dev.sluice.vendors.openai.responses.store.StoredResponses.sized;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.StoredResponse;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The bounds of a response store, and the responses they refuse. */
class ResponseLimitsTest {
    static final Instant T0 = FakeClock.START;
    static final ResponseLimits LIMITS = new ResponseLimits(Duration.ofHours(1), 10, 1_000);

    @Test
    void eachBoundIsCheckedNamingTheField() {
        assertThatThrownBy(() -> new ResponseLimits(Duration.ZERO, 1, 1)).hasMessage("maxAge: PT0S (expected: > 0)");
        assertThatThrownBy(() -> new ResponseLimits(Duration.ofSeconds(-1), 1, 1)).hasMessage("maxAge: PT-1S (expected: > 0)");
        assertThatThrownBy(() -> new ResponseLimits(Duration.ofSeconds(1), 0, 1)).hasMessage("maxCount: 0 (expected: >= 1)");
        assertThatThrownBy(() -> new ResponseLimits(Duration.ofSeconds(1), 1, 0)).hasMessage("maxBytes: 0 (expected: >= 1)");
        assertThatThrownBy(() -> new ResponseLimits(null, 1, 1)).isInstanceOf(NullPointerException.class).hasMessage("maxAge");
        assertThat(new ResponseLimits(Duration.ofNanos(1), 1, 1).maxCount()).isEqualTo(1);
    }

    @Test
    void theDefaultsKeepResponsesThirtyDays() {
        assertThat(ResponseLimits.MEMORY_DEFAULTS).isEqualTo(new ResponseLimits(Duration.ofDays(30), 10_000, 64L << 20));
        assertThat(ResponseLimits.DATABASE_DEFAULTS.maxAge()).isEqualTo(Duration.ofDays(30));
        assertThat(ResponseLimits.DATABASE_DEFAULTS.maxBytes()).isEqualTo(64L << 20);
    }

    @Test
    void aResponseExpiresMaxAgeAfterItWasAnswered() {
        assertThat(LIMITS.expiresAt(T0)).isEqualTo(T0.plus(Duration.ofHours(1)));
    }

    @Test
    void aResponseOfMaxBytesIsAcceptedAndOneByteMoreIsRefused() {
        assertThatCode(() -> LIMITS.check(sized("resp_1", "o", T0, LIMITS, 1_000))).doesNotThrowAnyException();
        assertThatThrownBy(() -> LIMITS.check(sized("resp_1", "o", T0, LIMITS, 1_001)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("response resp_1: 1001 bytes of JSON (expected: at most maxBytes, 1000, to be kept)");
    }

    @Test
    void aResponseMeantToBeServedPastMaxAgeIsRefused() {
        StoredResponse atMaxAge = new StoredResponse("resp_1", "o", "g", T0, T0.plus(Duration.ofHours(1)), "{}", "[]");
        StoredResponse beyond = new StoredResponse("resp_1", "o", "g", T0, T0.plus(Duration.ofHours(1)).plusNanos(1_000), "{}", "[]");

        assertThatCode(() -> LIMITS.check(atMaxAge)).doesNotThrowAnyException();
        assertThatThrownBy(() -> LIMITS.check(beyond))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("response resp_1: expiresAt 2025-01-01T01:00:00.000001Z (expected: at most maxAge, PT1H,"
                        + " after createdAt 2025-01-01T00:00:00Z)");
    }
}
