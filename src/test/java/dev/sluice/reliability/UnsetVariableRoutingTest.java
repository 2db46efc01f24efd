package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A deployment whose {@code api_key} names an unset variable, over real sockets: it is listed,
 * never called, its siblings and fallbacks serve its group, and a group with nothing else
 * answers a 401 naming the variable.
 */
class UnsetVariableRoutingTest {
    private static final String MASTER = "sk-admin";
    private static final String SECRET = "sk-good-secret-value";

    private final ScriptedUpstream good = ScriptedUpstream.always("good", Reply.completion("from good"));
    private final ScriptedUpstream unresolved = ScriptedUpstream.always("unresolved", Reply.completion("must not be called"));

    @AfterEach
    void stop() {
        good.close();
        unresolved.close();
    }

    private TestGateway gateway() {
        return TestGateway.start("""
                model_list:
                  - model_name: mixed
                    litellm_params: {model: openai/gpt-4o, api_base: %1$s, api_key: os.environ/MISSING_KEY}
                    model_info: {id: mixed-unresolved}
                  - model_name: mixed
                    litellm_params: {model: openai/gpt-4o, api_base: %2$s, api_key: os.environ/GOOD_KEY}
                    model_info: {id: mixed-good}
                  - model_name: solo
                    litellm_params: {model: openai/gpt-4o, api_base: %1$s, api_key: os.environ/MISSING_KEY}
                    model_info: {id: solo-unresolved}
                  - model_name: solo-with-fallback
                    litellm_params: {model: openai/gpt-4o, api_base: %1$s, api_key: os.environ/MISSING_KEY}
                    model_info: {id: fb-unresolved}
                  - model_name: backup
                    litellm_params: {model: openai/gpt-4o, api_base: %2$s, api_key: os.environ/GOOD_KEY}
                    model_info: {id: backup-good}
                router_settings:
                  num_retries: 2
                  fallbacks: [{solo-with-fallback: [backup]}]
                general_settings: {master_key: %3$s}
                """.formatted(unresolved.baseUrl(), good.baseUrl(), MASTER), Map.of("GOOD_KEY", SECRET));
    }

    private static String chat(String group) {
        return "{\"model\":\"" + group + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    @Test
    void theGroupIsServedByItsResolvedDeploymentAndTheUnresolvedOneIsNeverCalled() {
        try (TestGateway gateway = gateway()) {
            List<String> servedBy = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                HttpResponse<String> answer = gateway.post("/v1/chat/completions", chat("mixed"), "Authorization", "Bearer " + MASTER);
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                // Picked first only when nothing else is left, the unresolved deployment costs no retry.
                assertThat(answer.headers().firstValue("x-litellm-attempted-retries")).contains("0");
                servedBy.add(answer.headers().firstValue("x-litellm-model-id").orElse("(none)"));
            }

            assertThat(servedBy).containsOnly("mixed-good");
            assertThat(good.calls()).isEqualTo(8);
            assertThat(unresolved.calls()).isZero();
        }
    }

    @Test
    void aGroupWithOnlyTheUnresolvedDeploymentAnswers401NamingTheVariable() throws Exception {
        try (TestGateway gateway = gateway()) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", chat("solo"), "Authorization", "Bearer " + MASTER);

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
            JsonNode error = Json.MAPPER.readTree(answer.body()).path("error");
            assertThat(error.path("type").asText()).isEqualTo("authentication_error");
            assertThat(error.path("code").asText()).isEqualTo("missing_environment_variable");
            assertThat(error.path("param").isNull()).isTrue();
            assertThat(error.path("message").asText()).isEqualTo("Sluice: deployment 'solo-unresolved' (openai/gpt-4o) was not"
                    + " called: its config names environment variable MISSING_KEY, which was not set when Sluice started."
                    + " Set it and restart Sluice.\n\nSluice: model group 'solo' failed with the error above. No fallback was attempted.");
            assertThat(answer.body()).doesNotContain(SECRET);
            assertThat(unresolved.calls()).isZero();
        }
    }

    @Test
    void aFallbackServesAGroupWhoseOnlyDeploymentIsUnresolved() {
        try (TestGateway gateway = gateway()) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", chat("solo-with-fallback"),
                    "Authorization", "Bearer " + MASTER);

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(answer.headers().firstValue("x-litellm-model-id")).contains("backup-good");
            assertThat(answer.headers().firstValue("x-litellm-attempted-fallbacks")).contains("1");
            assertThat(unresolved.calls()).isZero();
        }
    }

    @Test
    void everyDeploymentIsStillListed() throws Exception {
        try (TestGateway gateway = gateway()) {
            HttpResponse<String> models = gateway.get("/v1/models", "Authorization", "Bearer " + MASTER);
            assertThat(models.statusCode()).as(models.body()).isEqualTo(200);
            List<String> groups = new ArrayList<>();
            Json.MAPPER.readTree(models.body()).path("data").forEach(m -> groups.add(m.path("id").asText()));
            assertThat(groups).containsExactlyInAnyOrder("mixed", "solo", "solo-with-fallback", "backup");

            HttpResponse<String> info = gateway.get("/model/info", "Authorization", "Bearer " + MASTER);
            assertThat(info.statusCode()).as(info.body()).isEqualTo(200);
            List<String> ids = new ArrayList<>();
            Json.MAPPER.readTree(info.body()).path("data").forEach(m -> ids.add(m.path("model_info").path("id").asText()));
            assertThat(ids).containsExactlyInAnyOrder("mixed-unresolved", "mixed-good", "solo-unresolved", "fb-unresolved",
                    "backup-good");
        }
    }
}
