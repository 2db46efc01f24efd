package dev.sluice.vendors.vertex.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.ModelRepository;
import dev.sluice.store.StoredModel;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
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
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Vertex AI deployment given through the model API brings its own service-account key
 * written out: it is not lent Application Default Credentials or the gateway's files, so a
 * {@code vertex_credentials} path is refused without being opened (a file that exists and one
 * that does not are refused alike) unless {@code admin_allowed_credentials} lends them.
 */
class VertexModelApiCredentialsTest {
    private static final String MASTER = "sk-admin";

    private static String config(TestDatabase store, String extraGeneral) {
        return """
                model_list:
                  - {model_name: base, litellm_params: {model: openai/base, api_base: "http://127.0.0.1:9/v1", api_key: k}}
                general_settings:
                  master_key: %s
                  %s
                  %s
                """.formatted(MASTER, store.generalSetting(), extraGeneral);
    }

    private static String entry(String id, int port, String credentials) {
        return """
                {"model_name": "vtx", "litellm_params": {"model": "vertex_ai/gemini-2.0-flash", "api_base": "http://127.0.0.1:%d",
                 "vertex_project": "proj", "vertex_location": "europe-west4"%s}, "model_info": {"id": "%s"}}"""
                .formatted(port, credentials == null ? "" : ", \"vertex_credentials\": " + Json.MAPPER.getNodeFactory()
                        .textNode(credentials), id);
    }

    private static HttpResponse<String> admin(TestGateway gateway, String body) {
        return gateway.post("/model/new", body, "Authorization", "Bearer " + MASTER);
    }

    private static JsonNode error(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes(StandardCharsets.UTF_8)).path("error");
    }

    private static String refusedAs(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(error(response).path("param").asText()).as(response.body()).isEqualTo("litellm_params.vertex_credentials");
        assertThat(error(response).path("code").asText()).as(response.body()).isEqualTo("credential_not_allowed");
        return error(response).path("message").asText();
    }

    @Test
    void noApplicationDefaultCredentialsNoKeyFileAndNoOtherCredentialTypeUnlessLent(@TempDir Path dir) throws Exception {
        try (TokenServer tokens = new TokenServer();
                MockUpstream mock = MockUpstream.start(MockOptions.defaults("vtx", MockMode.AUTH).withApi(MockApi.GEMINI)
                        .withApiKey(TokenServer.ACCESS_TOKEN));
                TestDatabase store = TestDatabases.postgres()) {
            Path keyFile = Files.writeString(dir.resolve("sa.json"), tokens.serviceAccountJson("key-project"));
            Path missing = dir.resolve("missing.json");
            try (TestGateway gateway = TestGateway.start(config(store, ""))) {
                assertThat(refusedAs(admin(gateway, entry("adc", mock.port(), null)))).contains("Application Default Credentials");
                String existing = refusedAs(admin(gateway, entry("file", mock.port(), keyFile.toString())));
                assertThat(existing).contains("a file path").doesNotContain(dir.toString());
                assertThat(refusedAs(admin(gateway, entry("file", mock.port(), missing.toString()))))
                        .as("an existing file and a missing one are refused alike").isEqualTo(existing);
                assertThat(refusedAs(admin(gateway, entry("ext", mock.port(), """
                        {"type": "external_account", "credential_source": {"file": "%s"}}""".formatted(keyFile)))))
                        .contains("not a service-account key");
                assertThat(tokens.exchanges()).as("no key was read, so none was exchanged").isEmpty();
                assertThat(mock.requests()).isZero();

                HttpResponse<String> inline = admin(gateway, entry("inline", mock.port(), tokens.serviceAccountJson("key-project")));
                assertThat(inline.statusCode()).as(inline.body()).isEqualTo(200);
                HttpResponse<String> called = gateway.post("/v1/chat/completions", Chat.body("vtx", "hi"), "Authorization",
                        "Bearer " + MASTER);
                assertThat(called.statusCode()).as("a key written out is the deployment's own: " + called.body()).isEqualTo(200);
            }
            // Written before this rule: left out, and its file never opened.
            Instant then = Instant.parse("2026-01-01T00:00:00Z");
            new ModelRepository(store.database()).insert(new StoredModel("file", "vtx-file",
                    entry("file", mock.port(), keyFile.toString()).replace("\"vtx\"", "\"vtx-file\""), then, then));
            try (TestGateway gateway = TestGateway.start(config(store, ""))) {
                HttpResponse<String> notServed = gateway.post("/v1/chat/completions", Chat.body("vtx-file", "hi"), "Authorization",
                        "Bearer " + MASTER);
                assertThat(notServed.statusCode()).as(notServed.body()).isEqualTo(400);
                assertThat(tokens.exchanges()).hasSize(1);
            }
            try (TestGateway lending = TestGateway.start(config(store, "admin_allowed_credentials: [files]"))) {
                HttpResponse<String> called = lending.post("/v1/chat/completions", Chat.body("vtx-file", "hi"), "Authorization",
                        "Bearer " + MASTER);
                assertThat(called.statusCode()).as("lent, the file is read: " + called.body()).isEqualTo(200);
                assertThat(tokens.exchanges()).hasSize(2);
            }
        }
    }
}
