package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two gateways sharing the local Redis, as two replicas behind one load balancer would: a
 * conversation whose first turn went through one goes back to the same deployment when its
 * next turn reaches the other. Each test uses a {@code redis_key_prefix} of its own.
 */
class SharedCachePinsTest {
    private final String prefix = TestRedis.newPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void aConversationPinnedThroughOneReplicaSticksToItsDeploymentThroughTheOther() throws Exception {
        try (MockUpstream first = MockUpstream.start(MockOptions.defaults("first", MockMode.OK));
                MockUpstream heavy = MockUpstream.start(MockOptions.defaults("heavy", MockMode.OK))) {
            String settings = """
                    router_settings:
                      optional_pre_call_checks: [prompt_caching]
                      redis_host: %s
                      redis_port: %d
                      redis_key_prefix: "%s"
                    """.formatted(TestRedis.HOST, TestRedis.PORT, prefix);
            // The first turn can only go to 'first' through a; b would send a new conversation to 'heavy'.
            String onlyFirst = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/gpt-4o, api_base: %s, weight: 1}, model_info: {id: first}}
                    """.formatted(first.baseUrl()) + settings;
            String both = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/gpt-4o, api_base: %s, weight: 1}, model_info: {id: first}}
                      - {model_name: g, litellm_params: {model: openai/gpt-4o, api_base: %s, weight: 1000}, model_info: {id: heavy}}
                    """.formatted(first.baseUrl(), heavy.baseUrl()) + settings;
            try (TestGateway a = TestGateway.start(onlyFirst);
                    TestGateway b = TestGateway.start(both)) {
                ObjectNode turn1 = Json.MAPPER.createObjectNode().put("model", "g");
                ArrayNode messages = turn1.putArray("messages");
                messages.addObject().put("role", "system").put("content", "You are a careful assistant. " + longText(1500));
                messages.addObject().put("role", "user").put("content", "First question?");
                HttpResponse<String> answer1 = a.post("/v1/chat/completions", turn1.toString());
                assertThat(answer1.statusCode()).as(answer1.body()).isEqualTo(200);
                assertThat(answer1.headers().firstValue("x-litellm-model-id")).hasValue("first");

                ObjectNode turn2 = turn1.deepCopy();
                ArrayNode next = (ArrayNode) turn2.get("messages");
                next.addObject().put("role", "assistant").put("content",
                        Json.MAPPER.readTree(answer1.body()).path("choices").path(0).path("message").path("content").asText());
                next.addObject().put("role", "user").put("content", "Second question?");
                // A pin is set in Redis and told to the other replicas in one script: wait until the first
                // turn's two cacheable prefixes (the system prompt, the whole turn) are pinned there.
                Eventually.until("a's pins are in Redis", Duration.ofSeconds(5), () -> TestRedis.countKeys(prefix + "pins:*") == 2);
                for (int i = 0; i < 5; i++) {
                    HttpResponse<String> answer = b.post("/v1/chat/completions", turn2.toString());
                    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                    assertThat(answer.headers().firstValue("x-litellm-model-id"))
                            .as("the next turn, through b, goes where a's turn left the prefix cached").hasValue("first");
                }

                int toHeavy = 0;
                String fresh = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"unrelated\"}]}";
                for (int i = 0; i < 10; i++) {
                    if (b.post("/v1/chat/completions", fresh).headers().firstValue("x-litellm-model-id").orElseThrow().equals("heavy")) {
                        toHeavy++;
                    }
                }
                assertThat(toHeavy).as("new conversations through b go by weight: 1000 to 1, on the seeded random every one").isEqualTo(10);
            }
        }
    }

    private static String longText(int words) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < words; i++) {
            s.append("word").append(i % 50).append(' ');
        }
        return s.toString();
    }
}
