package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AuthFailureSettings;
import dev.sluice.testing.FakeTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Unknown keys from one address, counted in fixed windows on a ticker that moves only when told. */
class AuthThrottleTest {
    private final FakeTime time = new FakeTime();
    private final AuthThrottle throttle = new AuthThrottle(new AuthFailureSettings(3, Duration.ofSeconds(10)), time.ticker());

    @Test
    void anAddressIsRefusedFromItsLimitOfFailuresUntilTheWindowEnds() {
        throttle.failed("10.0.0.1");
        throttle.failed("10.0.0.1");
        assertThat(throttle.refused("10.0.0.1")).as("two of three").isEmpty();
        time.advance(Duration.ofSeconds(4));
        throttle.failed("10.0.0.1");
        assertThat(throttle.refused("10.0.0.1")).as("the third, within the window").hasValue(Duration.ofSeconds(6));

        time.advance(Duration.ofSeconds(6).minusNanos(1));
        assertThat(throttle.refused("10.0.0.1")).as("a nanosecond before the window ends").hasValue(Duration.ofNanos(1));
        time.advance(Duration.ofNanos(1));
        assertThat(throttle.refused("10.0.0.1")).as("at its end").isEmpty();
    }

    @Test
    void aNewWindowStartsCountingAgain() {
        throttle.failed("10.0.0.1");
        throttle.failed("10.0.0.1");
        time.advance(Duration.ofSeconds(10));
        throttle.failed("10.0.0.1");
        assertThat(throttle.refused("10.0.0.1")).as("one failure in the new window").isEmpty();
    }

    @Test
    void otherAddressesAreNotRefusedForOnesFailures() {
        for (int i = 0; i < 5; i++) {
            throttle.failed("10.0.0.1");
        }
        assertThat(throttle.refused("10.0.0.2")).isEmpty();
        assertThat(throttle.refused(null)).isEmpty();
    }

    @Test
    void aLimitOfZeroCountsNothing() {
        AuthThrottle off = new AuthThrottle(new AuthFailureSettings(0, Duration.ofSeconds(10)), time.ticker());
        for (int i = 0; i < 50; i++) {
            off.failed("10.0.0.1");
        }
        assertThat(off.refused("10.0.0.1")).isEmpty();
    }
}
