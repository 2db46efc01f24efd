package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.CalendarMinutes;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two gateways sharing the local Redis, as two replicas behind one load balancer: a
 * deployment's {@code rpm} holds across both for a strategy that keeps deployments within
 * their limits, and the request that finds it full goes to a sibling with room.
 */
class SharedUsageWindowsTest {
    private final String prefix = TestRedis.newPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }

    private String yaml(String strategy, String modelList) {
        return """
                model_list:
                %s
                router_settings:
                  routing_strategy: %s
                  redis_host: %s
                  redis_port: %d
                  redis_key_prefix: "%s"
                """.formatted(modelList, strategy, TestRedis.HOST, TestRedis.PORT, prefix);
    }

    @Test
    void aDeploymentsRpmHoldsAcrossReplicasAndTheRestAreRefusedWithNoCapacity() throws Exception {
        try (MockUpstream limited = MockUpstream.start(MockOptions.defaults("limited", MockMode.OK))) {
            String yaml = yaml("usage-based-routing-v2", "  - {model_name: g, litellm_params: {model: openai/a, api_base: %s, rpm: 3}, model_info: {id: limited}}"
                    .formatted(limited.baseUrl()));
            try (TestGateway a = TestGateway.start(yaml); TestGateway b = TestGateway.start(yaml)) {
                awayFromAMinutesEnd();
                List<Integer> statuses = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    HttpResponse<String> answer = (i % 2 == 0 ? a : b).post("/v1/chat/completions", Chat.body("g", "hi"));
                    statuses.add(answer.statusCode());
                    if (answer.statusCode() == 429) {
                        assertThat(answer.body()).contains("no_capacity").contains("'limited'");
                        assertThat(answer.headers().firstValue("Retry-After")).isPresent();
                    }
                }

                assertThat(statuses).containsExactly(200, 200, 200, 429, 429, 429, 429, 429);
                assertThat(limited.requests()).isEqualTo(3);
            }
        }
    }

    @Test
    void theRequestThatFindsADeploymentFullThroughTheOtherReplicaGoesToASibling() throws Exception {
        try (MockUpstream small = MockUpstream.start(MockOptions.defaults("small", MockMode.OK));
                MockUpstream large = MockUpstream.start(MockOptions.defaults("large", MockMode.OK))) {
            // Cost-based routing prefers the cheap deployment while it has room: each replica sends there
            // until the shared count says it is full, whichever replica filled it.
            String yaml = yaml("cost-based-routing", """
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s, rpm: 2, input_cost_per_token: 0.000001}, model_info: {id: small}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %s, rpm: 100, input_cost_per_token: 0.001}, model_info: {id: large}}\
                    """.formatted(small.baseUrl(), large.baseUrl()));
            try (TestGateway a = TestGateway.start(yaml); TestGateway b = TestGateway.start(yaml)) {
                awayFromAMinutesEnd();
                for (int i = 0; i < 12; i++) {
                    HttpResponse<String> answer = (i % 2 == 0 ? a : b).post("/v1/chat/completions", Chat.body("g", "hi"));
                    assertThat(answer.statusCode()).isEqualTo(200);
                    assertThat(answer.headers().firstValue("x-litellm-attempted-retries"))
                            .as("a place lost to another replica is no failure").hasValue("0");
                }

                assertThat(small.requests()).as("small's rpm across both replicas").isEqualTo(2);
                assertThat(large.requests()).isEqualTo(10);
            }
        }
    }

    @Test
    void aContextWindowFailoverThatFindsTheLargerSiblingFullStopsRatherThanTryASmallerOne() throws Exception {
        try (MockUpstream small = MockUpstream.start(MockOptions.defaults("small", MockMode.CONTEXT).withMaxChars(5));
                MockUpstream tiny = MockUpstream.start(MockOptions.defaults("tiny", MockMode.OK));
                MockUpstream large = MockUpstream.start(MockOptions.defaults("large", MockMode.OK))) {
            // Cheapest first: small refuses the prompt; large (a larger window) is the one sibling it may go to.
            String yaml = yaml("cost-based-routing", """
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.0000001}, model_info: {id: small, max_input_tokens: 100}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %s, input_cost_per_token: 0.000001}, model_info: {id: tiny, max_input_tokens: 50}}
                      - {model_name: g, litellm_params: {model: openai/c, api_base: %s, rpm: 1, input_cost_per_token: 0.001}, model_info: {id: large, max_input_tokens: 1000}}\
                    """.formatted(small.baseUrl(), tiny.baseUrl(), large.baseUrl()));
            try (TestGateway a = TestGateway.start(yaml); TestGateway b = TestGateway.start(yaml)) {
                awayFromAMinutesEnd();
                HttpResponse<String> throughB = b.post("/v1/chat/completions", Chat.body("g", "a prompt longer than five"));
                assertThat(throughB.headers().firstValue("x-litellm-model-id")).as(throughB.body()).hasValue("large");

                HttpResponse<String> throughA = a.post("/v1/chat/completions", Chat.body("g", "a prompt longer than five"));

                assertThat(throughA.statusCode()).as(throughA.body()).isEqualTo(400);
                assertThat(throughA.body()).contains("context_length_exceeded");
                assertThat(tiny.requests()).as("a smaller window never gets a prompt too long for a larger one").isZero();
                assertThat(large.requests()).isEqualTo(1);
            }
        }
    }

    /** The windows are calendar minutes: start with time to spare before the next one. */
    private static void awayFromAMinutesEnd() {
        CalendarMinutes.awayFromTheEnd(Duration.ofSeconds(15));
    }
}
