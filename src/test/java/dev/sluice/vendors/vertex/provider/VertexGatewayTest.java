package dev.sluice.vendors.vertex.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vertex_ai/} deployments through a real gateway to the Gemini mock, with a
 * service-account key made for the test whose {@code token_uri} is a token server in the test:
 * the OAuth2 exchange really happens, once for many calls, and its token is the bearer the
 * mock insists on.
 */
class VertexGatewayTest {
    private final List<AutoCloseable> started = new ArrayList<>();
    private TokenServer tokens;
    private MockUpstream mock;

    @BeforeEach
    void start() throws Exception {
        tokens = new TokenServer();
        started.add(tokens);
        mock = MockUpstream.start(MockOptions.defaults("vtx", MockMode.AUTH).withApi(MockApi.GEMINI)
                .withApiKey(TokenServer.ACCESS_TOKEN));
        started.add(mock);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : started.reversed()) {
            c.close();
        }
    }

    private TestGateway gateway(String model, String credentials, String project) {
        TestGateway gateway = TestGateway.start("""
                model_list:
                  - model_name: vtx
                    litellm_params:
                      model: %s
                      api_base: http://127.0.0.1:%d
                      vertex_location: europe-west4
                      vertex_credentials: '%s'%s
                """.formatted(model, mock.port(), credentials, project.isEmpty() ? "" : "\n      vertex_project: " + project));
        started.add(gateway);
        return gateway;
    }

    static JsonNode json(String text) throws IOException {
        return Json.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void oneTokenExchangeServesManyCallsAsTheirBearer() throws IOException {
        TestGateway gateway = gateway("vertex_ai/gemini-2.0-flash", tokens.serviceAccountJson("key-project"), "proj");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("vtx", "hello " + i));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(json(response.body()).at("/choices/0/message/content").asText()).isEqualTo("[vtx] you said: hello " + i);
            assertThat(response.body()).doesNotContain(TokenServer.ACCESS_TOKEN);
        }
        HttpResponse<String> stream = gateway.post("/v1/chat/completions", Chat.stream("vtx", "streamed"));
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.body()).contains("streamed").contains("data: [DONE]");

        assertThat(tokens.exchanges()).hasSize(1);
        JsonNode claims = tokens.exchanges().getFirst();
        // The assertion names Google's token audience even when the key's token_uri sends it elsewhere.
        assertThat(claims.get("aud").asText()).isEqualTo("https://oauth2.googleapis.com/token");
        assertThat(claims.get("scope").asText()).isEqualTo(VertexCredentials.SCOPE);
        assertThat(claims.get("iss").asText()).isEqualTo("sluice-test@key-project.iam.gserviceaccount.com");
        assertThat(mock.receivedHeaders()).hasSize(4)
                .allSatisfy(h -> assertThat(h).containsEntry("authorization", "Bearer " + TokenServer.ACCESS_TOKEN));
    }

    @Test
    void aKeyFilesPathIsEnoughSinceTheProjectIsTheKeysAndEmbeddingsUsePredict(@TempDir Path dir) throws IOException {
        Path key = dir.resolve("sa.json");
        Files.writeString(key, tokens.serviceAccountJson("key-project"));
        TestGateway gateway = TestGateway.start("""
                model_list:
                  - model_name: embed
                    litellm_params:
                      model: vertex_ai/text-embedding-005
                      api_base: http://127.0.0.1:%d
                      vertex_credentials: %s
                """.formatted(mock.port(), key));
        started.add(gateway);
        HttpResponse<String> response = gateway.post("/v1/embeddings", "{\"model\": \"embed\", \"input\": [\"alpha\", \"beta\"]}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = json(response.body());
        assertThat(body.at("/data")).hasSize(2);
        assertThat(body.at("/data/0/embedding")).hasSize(8);
        assertThat(body.at("/usage/prompt_tokens").asInt()).isPositive();
        assertThat(mock.receivedBodies().getLast().at("/instances/1/content").asText()).isEqualTo("beta");
    }

    @Test
    void theProjectMayComeFromTheInlineKey() throws IOException {
        TestGateway gateway = gateway("vertex_ai/gemini-2.5-flash", tokens.serviceAccountJson("key-project"), "");
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("vtx", "hi"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void aRefusedTokenExchangeFailsTheCallWithoutShowingTheKey() throws IOException {
        tokens.refuse();
        TestGateway gateway = gateway("vertex_ai/gemini-2.0-flash", tokens.serviceAccountJson("key-project"), "proj");
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("vtx", "hi"));
        assertThat(response.statusCode()).isNotEqualTo(200);
        assertThat(response.body()).doesNotContain("PRIVATE KEY");
        assertThat(mock.requests()).isZero();
    }

    @Test
    void anInlineKeyWrappedInQuotesIsStillAnInlineKeyWithItsProject() throws IOException {
        // The YAML value is a quoted JSON string, as when the key is pasted as one.
        String quoted = Json.MAPPER.writeValueAsString(tokens.serviceAccountJson("key-project"));
        TestGateway gateway = gateway("vertex_ai/gemini-2.5-flash", quoted, "");
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("vtx", "hi"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(tokens.exchanges()).hasSize(1);
    }

    @Test
    void aKeyThatCannotBeLoadedFailsTheCallNamingOnlyTheProblem(@TempDir Path dir) throws IOException {
        String key = tokens.serviceAccountJson("key-project");
        String privateKey = Json.parse(key.getBytes(StandardCharsets.UTF_8)).get("private_key").asText();
        String secretLine = privateKey.lines().skip(1).findFirst().orElseThrow();
        Path pem = dir.resolve("pem.json");
        Files.writeString(pem, privateKey);
        String truncatedAndQuoted = Json.MAPPER.writeValueAsString(key.substring(0, key.indexOf("-----END")));
        for (String credentials : List.of(truncatedAndQuoted, pem.toString())) {
            TestGateway gateway = gateway("vertex_ai/gemini-2.0-flash", credentials, "proj");
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("vtx", "hi"));
            assertThat(response.statusCode()).isNotEqualTo(200);
            assertThat(response.body()).contains("vertex_credentials: is not a service-account key")
                    .doesNotContain(secretLine).doesNotContain("PRIVATE KEY");
        }
        TestGateway missing = gateway("vertex_ai/gemini-2.0-flash", dir.resolve("absent.json").toString(), "proj");
        assertThat(missing.post("/v1/chat/completions", Chat.body("vtx", "hi")).body())
                .contains("vertex_credentials: cannot read the service-account key file");
        assertThat(mock.requests()).isZero();
    }
}
