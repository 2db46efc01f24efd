package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class MockArgsTest {

    @Test
    void noFlagsGiveTheDocumentedDefaults() {
        assertThat(serve()).isEqualTo(new MockOptions("mock", MockMode.OK, "127.0.0.1", 4100,
                Duration.ofMillis(2000), 1000, "forbidden", 1, "mock-key", 0, MockApi.OPENAI));
    }

    @Test
    void everyFlagSetsItsOption() {
        MockOptions options = serve("--port", "18001", "--host", "0.0.0.0", "--name", "primary", "--mode", "slow",
                "--delay-ms", "250", "--max-chars", "64", "--trigger", "secret", "--retry-after", "9",
                "--api-key", "sk-1", "--times", "3");

        assertThat(options).isEqualTo(new MockOptions("primary", MockMode.SLOW, "0.0.0.0", 18001,
                Duration.ofMillis(250), 64, "secret", 9, "sk-1", 3, MockApi.OPENAI));
    }

    @Test
    void flagsAlsoTakeTheirValueAfterAnEqualsSignAndTheLastOneWins() {
        assertThat(serve("--mode=FAIL", "--port=0", "--port", "5")).isEqualTo(
                MockOptions.defaults("mock", MockMode.FAIL).withPort(5));
    }

    @Test
    void helpWinsOverEverythingElse() {
        assertThat(MockArgs.parse(new String[] {"--port", "1", "--help"})).isInstanceOf(MockArgs.Help.class);
        assertThat(MockArgs.parse(new String[] {"-h"})).isInstanceOf(MockArgs.Help.class);
    }

    @Test
    void mistakesNameTheFlagAndTheValue() {
        assertMistake("unknown flag --colour", "--colour", "red");
        assertMistake("unexpected argument 'fail'", "fail");
        assertMistake("--port needs a value", "--port");
        assertMistake("--port: 'abc' (expected: an integer 0..65535)", "--port", "abc");
        assertMistake("--port: '70000' (expected: an integer 0..65535)", "--port", "70000");
        assertMistake("--delay-ms: '-1' (expected: an integer >= 0)", "--delay-ms", "-1");
        assertMistake("--times: '1.5' (expected: an integer >= 0)", "--times", "1.5");
        assertMistake("--mode: unknown mode 'explode' (expected one of: " + MockMode.cliNames() + ")",
                "--mode", "explode");
        assertMistake("--name: '' (expected: not blank)", "--name=");
    }

    @Test
    void usageListsEveryFlagAndMode() {
        for (String flag : new String[] {"--port", "--host", "--name", "--mode", "--delay-ms", "--max-chars",
                "--trigger", "--retry-after", "--api-key", "--times", "--help"}) {
            assertThat(MockArgs.USAGE).contains(flag);
        }
        for (MockMode mode : MockMode.values()) {
            assertThat(MockArgs.USAGE).contains(mode.cliName() + " ").contains(mode.summary());
        }
    }

    private static MockOptions serve(String... args) {
        return ((MockArgs.Serve) MockArgs.parse(args)).options();
    }

    private static void assertMistake(String message, String... args) {
        assertThatThrownBy(() -> MockArgs.parse(args)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
