package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.spend.PythonFloats;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The response duration header's milliseconds, written without exact decimal arithmetic, read as Python prints them. */
class HeaderValuesTest {
    @Test
    void millisArePrintedAsPythonPrintsTheRoundedFloat() {
        assertThat(HeaderValues.millis(0)).isEqualTo("0.0");
        assertThat(HeaderValues.millis(1)).isEqualTo("0.001");
        assertThat(HeaderValues.millis(12_300)).isEqualTo("12.3");
        assertThat(HeaderValues.millis(12_000)).isEqualTo("12.0");
        assertThat(HeaderValues.millis(12_345)).isEqualTo("12.345");
        assertThat(HeaderValues.millis(1_000_010)).isEqualTo("1000.01");
        Random random = new Random(21);
        for (int i = 0; i < 100_000; i++) {
            long micros = i < 50_000 ? i : Math.abs(random.nextLong() % 10_000_000_000L);
            assertThat(HeaderValues.millis(micros)).as("%d µs", micros).isEqualTo(PythonFloats.repr(micros / 1000.0));
        }
    }
}
