package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.SpendRow;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A stream's cost: known at its end, sent as a trailer, and logged with its tokens. */
class StreamCostTest {
    private static final String MASTER = "sk-master-1234";
    private static final Pattern TRAILER = Pattern.compile("\r\n0\r\nx-litellm-response-cost: ([0-9.e-]+)\r\n\r\n$");
    private static final Pattern USAGE = Pattern.compile("\"prompt_tokens\":(\\d+),\"completion_tokens\":(\\d+)");

    private static String config(TestDatabase store, MockUpstream upstream) {
        return """
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting());
    }

    @StoreTest
    void aStreamWithAUsageEventIsChargedByItAndSaysItsCostInATrailer(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            String raw = gateway.rawChat("HTTP/1.1", MASTER, "{\"model\":\"gpt-a\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"tell me a story\"}]}");

            assertThat(raw).startsWith("HTTP/1.1 200").contains("\r\nTrailer: x-litellm-response-cost\r\n").contains("data: [DONE]");
            Matcher usage = USAGE.matcher(raw);
            assertThat(usage.find()).isTrue();
            long prompt = Long.parseLong(usage.group(1));
            long completion = Long.parseLong(usage.group(2));
            double expected = new BigDecimal("0.000001").multiply(BigDecimal.valueOf(prompt))
                    .add(new BigDecimal("0.000002").multiply(BigDecimal.valueOf(completion))).doubleValue();
            Matcher trailer = TRAILER.matcher(raw);
            assertThat(trailer.find()).as(raw).isTrue();
            assertThat(Double.parseDouble(trailer.group(1))).isEqualTo(expected);

            SpendRow row = KeyEnforcementTest.awaitRow(store, callId(raw));
            assertThat(row.tokens().promptTokens()).isEqualTo(prompt);
            assertThat(row.tokens().completionTokens()).isEqualTo(completion);
            assertThat(row.cost().doubleValue()).isEqualTo(expected);
        }
    }

    @StoreTest
    void aStreamWithoutUsageIsChargedByCountingItsText(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            String raw = gateway.rawChat("HTTP/1.1", MASTER, "{\"model\":\"gpt-a\",\"stream\":true,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"tell me a story\"}]}");

            assertThat(raw).doesNotContain("prompt_tokens");
            Matcher trailer = TRAILER.matcher(raw);
            assertThat(trailer.find()).as(raw).isTrue();
            SpendRow row = KeyEnforcementTest.awaitRow(store, callId(raw));
            assertThat(row.tokens().promptTokens()).isPositive();
            assertThat(row.tokens().completionTokens()).isPositive();
            assertThat(row.cost().doubleValue()).isEqualTo(Double.parseDouble(trailer.group(1))).isPositive();
        }
    }


    private static String callId(String raw) {
        Matcher id = Pattern.compile("(?i)\r\nx-litellm-call-id: ([^\r]+)\r\n").matcher(raw);
        assertThat(id.find()).isTrue();
        return id.group(1);
    }
}
