package dev.sluice.accounts.spend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PythonFloatsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(textBlock = """
            0.0,                 0.0
            -0.0,                -0.0
            1.0,                 1.0
            100.0,               100.0
            -0.5,                -0.5
            0.01,                0.01
            0.032777001,         0.032777001
            128.91354257719996,  128.91354257719996
            0.0001,              0.0001
            0.00045,             0.00045
            0.00001,             1e-05
            6.2e-05,             6.2e-05
            2.48e-05,            2.48e-05
            1.5e-7,              1.5e-07
            1e-100,              1e-100
            1e15,                1000000000000000.0
            1e16,                1e+16
            1.2345678901234568e17, 1.2345678901234568e+17
            0.30000000000000004, 0.30000000000000004
            """)
    void writesFloatsAsPythonsRepr(double value, String written) {
        assertThat(PythonFloats.repr(value)).isEqualTo(written);
    }
}
