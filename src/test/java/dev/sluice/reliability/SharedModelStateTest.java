package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /model/state} on two gateways sharing the local Redis: a bench one replica made
 * shows on the other with the same shared end; its cause and failures stay with the replica
 * that saw them.
 */
class SharedModelStateTest {
    private final String prefix = TestRedis.newPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }

    private static JsonNode limited(TestGateway gateway) {
        JsonNode state;
        try {
            state = Json.parse(gateway.get("/model/state").body().getBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (JsonNode deployment : state.get("deployments")) {
            if (deployment.get("model_id").asText().equals("limited")) {
                return deployment;
            }
        }
        throw new AssertionError("no deployment limited");
    }

    @Test
    void aBenchMadeByOneReplicaShowsOnTheOtherWithTheSharedEnd() throws Exception {
        try (ScriptedUpstream limited = ScriptedUpstream.always("limited", new Reply(429, "{\"error\":{\"message\":\"busy\"}}", "30"));
                ScriptedUpstream backup = ScriptedUpstream.start("backup")) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: limited}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: backup}}
                    router_settings:
                      redis_host: %s
                      redis_port: %d
                      redis_key_prefix: "%s"
                    """.formatted(limited.baseUrl(), backup.baseUrl(), TestRedis.HOST, TestRedis.PORT, prefix);
            try (TestGateway a = TestGateway.start(yaml);
                    TestGateway b = TestGateway.start(yaml)) {
                assertThat(a.post("/v1/chat/completions", Chat.body("g", "hi")).statusCode()).isEqualTo(200);
                JsonNode onA = limited(a);
                assertThat(onA.get("state").asText()).isEqualTo("benched");
                assertThat(onA.get("bench_reason").asText()).isEqualTo("rate_limited");
                assertThat(onA.get("recent_failures")).hasSize(1);

                Eventually.until("b sees the bench a made", Duration.ofSeconds(5),
                        () -> limited(b).get("state").asText().equals("benched"));
                JsonNode onB = limited(b);
                assertThat(onB.get("benched_until").asText()).isEqualTo(onA.get("benched_until").asText());
                assertThat(onB.get("bench_reason").isNull()).as("b did not see its cause").isTrue();
                assertThat(onB.get("recent_failures")).isEmpty();
            }
        }
    }
}
