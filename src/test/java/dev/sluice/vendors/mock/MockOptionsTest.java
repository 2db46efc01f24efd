package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class MockOptionsTest {

    @Test
    void defaultsMatchTheCommandLinesExceptThePort() {
        MockOptions options = MockOptions.defaults("primary", MockMode.FAIL);

        assertThat(options).isEqualTo(new MockOptions("primary", MockMode.FAIL, "127.0.0.1", 0,
                Duration.ofMillis(2000), 1000, "forbidden", 1, "mock-key", 0, MockApi.OPENAI));
    }

    @Test
    void withMethodsChangeOneFieldEach() {
        MockOptions base = MockOptions.defaults("a", MockMode.OK);

        MockOptions changed = base.withName("b").withMode(MockMode.SLOW).withHost("0.0.0.0").withPort(4100)
                .withDelay(Duration.ofMillis(5)).withMaxChars(10).withTriggerWord("bomb")
                .withRetryAfterSeconds(3).withApiKey("k").withTimes(2);

        assertThat(changed).isEqualTo(new MockOptions("b", MockMode.SLOW, "0.0.0.0", 4100,
                Duration.ofMillis(5), 10, "bomb", 3, "k", 2, MockApi.OPENAI));
        assertThat(base).isEqualTo(MockOptions.defaults("a", MockMode.OK));
    }

    @Test
    void invalidValuesAreRefusedNamingFieldValueAndRule() {
        MockOptions base = MockOptions.defaults("a", MockMode.OK);

        assertThatThrownBy(() -> base.withPort(70000)).hasMessage("port: 70000 (expected: 0..65535)");
        assertThatThrownBy(() -> base.withPort(-1)).hasMessage("port: -1 (expected: 0..65535)");
        assertThatThrownBy(() -> base.withTimes(-1)).hasMessage("times: -1 (expected: >= 0; 0 means always)");
        assertThatThrownBy(() -> base.withDelay(Duration.ofMillis(-1))).hasMessage("delay: PT-0.001S (expected: >= 0)");
        assertThatThrownBy(() -> base.withMaxChars(-5)).hasMessage("maxChars: -5 (expected: >= 0)");
        assertThatThrownBy(() -> base.withRetryAfterSeconds(-1)).hasMessage("retryAfterSeconds: -1 (expected: >= 0)");
        assertThatThrownBy(() -> base.withName(" ")).hasMessage("name: ' ' (expected: not blank)");
        assertThatThrownBy(() -> base.withApiKey(null)).hasMessage("apiKey: null (expected: not blank)");
        assertThatThrownBy(() -> base.withMode(null)).isInstanceOf(NullPointerException.class).hasMessage("mode");
    }

    @Test
    void modesReadTheirCommandLineNamesInAnyCase() {
        for (MockMode mode : MockMode.values()) {
            assertThat(MockMode.fromCliName(mode.cliName())).isEqualTo(mode);
        }
        assertThat(MockMode.fromCliName("RateLimit")).isEqualTo(MockMode.RATELIMIT);
        assertThat(MockMode.cliNames())
                .isEqualTo("ok, fail, slow, ratelimit, auth, notfound, reject, context, policy, cut, hang");
        assertThatThrownBy(() -> MockMode.fromCliName("boom"))
                .hasMessage("unknown mode 'boom' (expected one of: " + MockMode.cliNames() + ")");
    }
}
