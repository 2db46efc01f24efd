package dev.sluice.vendors.anthropic.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A caller's {@code cache_control} through the gateway to an {@code anthropic/} deployment over
 * real sockets: the breakpoint reaches the right block, the cache read comes back in OpenAI's
 * {@code usage}, and the call is charged at the catalog's cache-read rate.
 */
class AnthropicPromptCachingGatewayTest {
    private static final String KEY = "sk-ant-secret-0123456789";
    /** claude-sonnet-4-5 in the catalog, per token: $3 input, $0.30 cache read, $15 output per million. */
    private static final BigDecimal INPUT = new BigDecimal("0.000003");
    private static final BigDecimal CACHE_READ = new BigDecimal("0.0000003");
    private static final BigDecimal OUTPUT = new BigDecimal("0.000015");

    private static MockUpstream anthropicMock() {
        return MockUpstream.start(MockOptions.defaults("claude", MockMode.OK).withApi(MockApi.ANTHROPIC).withApiKey(KEY));
    }

    private static TestGateway gatewayBefore(MockUpstream claude) {
        return TestGateway.start("model_list:\n  - {model_name: claude, litellm_params: {model: anthropic/claude-sonnet-4-5, api_base: '"
                + claude.baseUrl() + "', api_key: " + KEY + "}}\n");
    }

    @Test
    void aMarkedTextPartIsCachedByAnthropicAndChargedAtTheCacheReadRate() throws Exception {
        try (MockUpstream claude = anthropicMock();
                TestGateway gateway = gatewayBefore(claude)) {
            String document = "The terms of service, clause by clause. ".repeat(50);
            HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                    {"model":"claude","messages":[{"role":"system","content":"Answer from the document."},
                     {"role":"user","content":[{"type":"text","text":"%s","cache_control":{"type":"ephemeral"}},
                      {"type":"text","text":"What does clause one say?"}]}]}""".formatted(document));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode sent = claude.receivedBodies().getFirst();
            assertThat(sent.at("/messages/0/content/0/cache_control")).isEqualTo(Json.parse("{\"type\":\"ephemeral\"}".getBytes()));
            assertThat(sent.at("/messages/0/content/1").has("cache_control")).isFalse();
            assertThat(sent.at("/system/0").has("cache_control")).isFalse();

            JsonNode usage = Json.parse(response.body().getBytes()).get("usage");
            long prompt = usage.get("prompt_tokens").asLong();
            long cached = usage.at("/prompt_tokens_details/cached_tokens").asLong();
            long completion = usage.get("completion_tokens").asLong();
            assertThat(cached).isPositive();
            assertThat(prompt).as("prompt_tokens includes the cached ones").isGreaterThan(cached);
            int promptChars = document.length() + "Answer from the document.".length() + "What does clause one say?".length();
            assertThat(prompt).as("the mock counts a token per four characters, rounded up").isEqualTo((promptChars + 3) / 4);

            double charged = Double.parseDouble(response.headers().firstValue("x-litellm-response-cost").orElseThrow());
            BigDecimal atCacheRate = INPUT.multiply(BigDecimal.valueOf(prompt - cached))
                    .add(CACHE_READ.multiply(BigDecimal.valueOf(cached))).add(OUTPUT.multiply(BigDecimal.valueOf(completion)));
            BigDecimal atFullRate = INPUT.multiply(BigDecimal.valueOf(prompt)).add(OUTPUT.multiply(BigDecimal.valueOf(completion)));
            assertThat(charged).isCloseTo(atCacheRate.doubleValue(), within(1e-12));
            assertThat(charged).isLessThan(atFullRate.doubleValue());
        }
    }

    @Test
    void aStreamsUsageChunkCarriesTheCacheRead() throws Exception {
        try (MockUpstream claude = anthropicMock();
                TestGateway gateway = gatewayBefore(claude)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                    {"model":"claude","stream":true,"stream_options":{"include_usage":true},"messages":[
                     {"role":"system","content":"%s","cache_control":{"type":"ephemeral","ttl":"1h"}},
                     {"role":"user","content":"hi"}]}""".formatted("Long standing instructions. ".repeat(20)));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(claude.receivedBodies().getFirst().at("/system/0/cache_control"))
                    .isEqualTo(Json.parse("{\"type\":\"ephemeral\",\"ttl\":\"1h\"}".getBytes()));
            JsonNode usage = null;
            for (String line : response.body().split("\n")) {
                if (line.startsWith("data: {") && line.contains("\"usage\":{")) {
                    usage = Json.parse(line.substring(6).getBytes()).get("usage");
                }
            }
            assertThat(usage).as(response.body()).isNotNull();
            assertThat(usage.at("/prompt_tokens_details/cached_tokens").asLong()).isPositive();
            assertThat(usage.get("prompt_tokens").asLong()).isGreaterThan(usage.at("/prompt_tokens_details/cached_tokens").asLong());
        }
    }

    @Test
    void aMalformedBreakpointIsA400NamingItAndNothingIsSent() throws Exception {
        try (MockUpstream claude = anthropicMock();
                TestGateway gateway = gatewayBefore(claude)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                    {"model":"claude","messages":[{"role":"user","content":"hi","cache_control":{"type":"ephemeral","ttl":"1d"}}]}""");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(Json.parse(response.body().getBytes()).at("/error/message").asText())
                    .contains("messages[0].cache_control.ttl: \"1d\" (expected: 5m or 1h)");
            assertThat(claude.requests()).isZero();
        }
    }
}
