package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** With a master key set, every /v1 call needs it; the probes do not. */
class AuthTest {
    private MockUpstream upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        gateway = TestGateway.start("""
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: %s}
                general_settings:
                  master_key: os.environ/SLUICE_TEST_MASTER
                """.formatted(upstream.baseUrl()), Map.of("SLUICE_TEST_MASTER", "sk-master-123"));
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void acceptsTheMasterKeyInEachHeaderForm() {
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "Authorization", "Bearer sk-master-123").statusCode())
                .isEqualTo(200);
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "x-api-key", "sk-master-123").statusCode())
                .isEqualTo(200);
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "api-key", "sk-master-123").statusCode())
                .isEqualTo(200);
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "x-litellm-api-key", "Bearer sk-master-123")
                .statusCode()).isEqualTo(200);
        assertThat(upstream.requests()).isEqualTo(4);
    }

    @Test
    void liteLlmsKeyHeaderWinsOverAnAuthorizationThatCarriesSomethingElse() {
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "Authorization", "Bearer sk-for-the-vendor",
                "x-litellm-api-key", "sk-master-123").statusCode()).isEqualTo(200);
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "Authorization", "Bearer sk-master-123",
                "x-litellm-api-key", "sk-wrong").statusCode()).as("the LiteLLM header is the one read").isEqualTo(401);
        assertThat(upstream.requests()).isEqualTo(1);
    }

    @Test
    void refusesAMissingKeyWith401BeforeCallingAnyUpstream() throws IOException {
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "a"));

        assertThat(response.statusCode()).isEqualTo(401);
        JsonNode error = Json.parse(response.body().getBytes()).get("error");
        assertThat(error.get("type").asText()).isEqualTo("authentication_error");
        assertThat(error.get("message").asText()).contains("No API key");
        assertThat(upstream.requests()).isZero();
    }

    @Test
    void refusesAWrongKeyAndAPrefixOfTheRightOne() {
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "Authorization", "Bearer sk-wrong").statusCode())
                .isEqualTo(401);
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "Authorization", "Bearer sk-master-12").statusCode())
                .isEqualTo(401);
        assertThat(gateway.get("/v1/models", "Authorization", "Bearer sk-wrong").statusCode()).isEqualTo(401);
        assertThat(upstream.requests()).isZero();
    }

    @Test
    void modelListNeedsTheKeyButProbesDoNot() {
        assertThat(gateway.get("/v1/models").statusCode()).isEqualTo(401);
        assertThat(gateway.get("/v1/models", "Authorization", "Bearer sk-master-123").statusCode()).isEqualTo(200);
        assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200);
        assertThat(gateway.get("/health/readiness").statusCode()).isEqualTo(200);
    }
}
