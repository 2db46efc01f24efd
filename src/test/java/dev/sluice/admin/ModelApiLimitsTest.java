package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.ModelRepository;
import dev.sluice.store.StoredModel;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a deployment given through the model API may reach, over HTTP against a real gateway
 * and PostgreSQL store: only the environment variables the operator lists, and no api_base at
 * a metadata, link-local or unspecified address or at the gateway itself.
 */
class ModelApiLimitsTest {
    private static final String MASTER = "sk-admin";
    private static final String DATABASE_SECRET = "postgres://app:db-password-123@db.internal/app";
    private static final Map<String, String> ENV = Map.of("SECRET_DATABASE_URL", DATABASE_SECRET, "UPSTREAM_KEY",
            "sk-from-the-environment");

    private static String config(TestDatabase store, String extraGeneral) {
        return """
                model_list:
                  - {model_name: base, litellm_params: {model: openai/base, api_base: "http://169.254.169.254", api_key: os.environ/UPSTREAM_KEY}}
                general_settings:
                  master_key: %s
                  %s
                  %s
                """.formatted(MASTER, store.generalSetting(), extraGeneral);
    }

    private static HttpResponse<String> admin(TestGateway gateway, String path, String body) {
        return gateway.post(path, body, "Authorization", "Bearer " + MASTER);
    }

    private static HttpResponse<String> chat(TestGateway gateway, String group) {
        return gateway.post("/v1/chat/completions", Chat.body(group, "hi"), "Authorization", "Bearer " + MASTER);
    }

    private static JsonNode error(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes()).path("error");
    }

    private static void assertRefused(HttpResponse<String> response, String param, String code) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(error(response).path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error(response).path("param").asText()).as(response.body()).isEqualTo(param);
        assertThat(error(response).path("code").asText()).as(response.body()).isEqualTo(code);
        assertThat(error(response).path("message").asText()).contains(param);
        assertThat(response.body()).doesNotContain("db-password-123", "sk-from-the-environment");
    }

    @Test
    void anEnvironmentReferenceIsRefusedUnlessTheOperatorListsTheVariable() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("upstream", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, "admin_allowed_env_vars: [UPSTREAM_KEY]"), ENV)) {
            String base = upstream.baseUrl();
            Map<String, String> refusedAt = Map.of(
                    "litellm_params.api_key", """
                            {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "%s", "api_key": "os.environ/SECRET_DATABASE_URL"}}""",
                    "litellm_params.api_version", """
                            {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "%s", "api_version": "os.environ/SECRET_DATABASE_URL"}}""",
                    "model_name", """
                            {"model_name": "os.environ/SECRET_DATABASE_URL", "litellm_params": {"model": "openai/m", "api_base": "%s"}}""",
                    "model_info.id", """
                            {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "%s"}, "model_info": {"id": "os.environ/SECRET_DATABASE_URL"}}""",
                    "litellm_params.model", """
                            {"model_name": "g", "litellm_params": {"model": "os.environ/SECRET_DATABASE_URL", "api_base": "%s"}}""",
                    "litellm_params.extra_headers.x[1]", """
                            {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "%s", "extra_headers": {"x": ["a", "os.environ/NOT_SET_AT_ALL"]}}}""");
            for (Map.Entry<String, String> refused : refusedAt.entrySet()) {
                assertRefused(admin(gateway, "/model/new", refused.getValue().formatted(base)), refused.getKey(),
                        "env_reference_not_allowed");
            }
            assertThat(upstream.requests()).isZero();

            HttpResponse<String> allowed = admin(gateway, "/model/new", """
                    {"model_name": "live", "litellm_params": {"model": "openai/m", "api_base": "%s", "api_key": "os.environ/UPSTREAM_KEY"},
                     "model_info": {"id": "live-1"}}""".formatted(base));
            assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
            assertThat(chat(gateway, "live").statusCode()).isEqualTo(200);
            assertThat(upstream.receivedHeaders().getLast().get("authorization")).as("a listed variable resolves as in the file")
                    .isEqualTo("Bearer sk-from-the-environment");

            assertRefused(admin(gateway, "/model/update", """
                    {"model_info": {"id": "live-1"}, "litellm_params": {"api_key": "os.environ/SECRET_DATABASE_URL"}}"""),
                    "litellm_params.api_key", "env_reference_not_allowed");
            assertThat(chat(gateway, "live").statusCode()).as("served as it was").isEqualTo(200);
            assertThat(upstream.receivedHeaders().getLast().get("authorization")).isEqualTo("Bearer sk-from-the-environment");
            for (String listing : List.of("/model/info", "/v1/models", "/metrics")) {
                assertThat(gateway.get(listing, "Authorization", "Bearer " + MASTER).body()).doesNotContain("db-password-123");
            }
        }
    }

    @Test
    void aStoredEntryNamingAVariableNoLongerAllowedIsNotServedUntilChanged() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("upstream", MockMode.OK))) {
            // As written by a gateway that let the model API name any variable, or while the list still held it.
            Instant then = Instant.parse("2026-01-01T00:00:00Z");
            new ModelRepository(store.database()).insert(new StoredModel("stored-1", "stored", """
                    {"model_name": "stored", "litellm_params": {"model": "openai/m", "api_base": "%s", "api_key": "os.environ/UPSTREAM_KEY"},
                     "model_info": {"id": "stored-1"}}""".formatted(upstream.baseUrl()), then, then));

            try (TestGateway listing = TestGateway.start(config(store, "admin_allowed_env_vars: [UPSTREAM_KEY]"), ENV)) {
                assertThat(chat(listing, "stored").statusCode()).as("served where the variable is listed").isEqualTo(200);
                assertThat(upstream.receivedHeaders().getLast().get("authorization")).isEqualTo("Bearer sk-from-the-environment");
            }
            upstream.reset();

            try (TestGateway gateway = TestGateway.start(config(store, ""), ENV)) {
                HttpResponse<String> notServed = chat(gateway, "stored");
                assertThat(notServed.statusCode()).as(notServed.body()).isEqualTo(400);
                assertThat(upstream.requests()).as("the variable is never sent").isZero();
                assertThat(gateway.get("/model/info", "Authorization", "Bearer " + MASTER).body()).doesNotContain("stored-1");

                assertRefused(admin(gateway, "/model/update", "{\"model_info\": {\"id\": \"stored-1\"}, \"litellm_params\": {\"rpm\": 5}}"),
                        "litellm_params.api_key", "env_reference_not_allowed");
                HttpResponse<String> fixed = admin(gateway, "/model/update",
                        "{\"model_info\": {\"id\": \"stored-1\"}, \"litellm_params\": {\"api_key\": \"sk-written-out\"}}");
                assertThat(fixed.statusCode()).as(fixed.body()).isEqualTo(200);
                assertThat(chat(gateway, "stored").statusCode()).isEqualTo(200);
                assertThat(upstream.receivedHeaders().getLast().get("authorization")).isEqualTo("Bearer sk-written-out");
            }
        }
    }

    @Test
    void anApiBaseAtMetadataLinkLocalUnspecifiedOrTheGatewayItselfIsRefused() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("upstream", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, "admin_allowed_env_vars: [IMDS_URL]"),
                        Map.of("UPSTREAM_KEY", "k", "IMDS_URL", "http://169.254.169.254/latest"))) {
            List<String> refused = List.of("http://169.254.169.254/latest/meta-data", "http://[::ffff:169.254.169.254]",
                    "http://2852039166", "http://0xa9fea9fe", "http://0251.0376.0251.0376", "http://0.0.0.0:8080", "http://[::]",
                    "http://[fd00:ec2::254]", "http://metadata.google.internal", gateway.baseUrl(),
                    "http://localhost:" + gateway.port(), "http://2130706433:" + gateway.port(), "http://user:db-password-123@example.com",
                    "ftp://example.com", "os.environ/IMDS_URL");
            for (String apiBase : refused) {
                HttpResponse<String> answer = admin(gateway, "/model/new", """
                        {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "%s"}}""".formatted(apiBase));
                assertRefused(answer, "litellm_params.api_base", "api_base_not_allowed");
            }
            assertThat(error(admin(gateway, "/model/new", """
                    {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "http://169.254.169.254"}}"""))
                    .path("message").asText()).isEqualTo("The model is not valid: litellm_params.api_base is refused: its host is "
                    + "a link-local address (169.254.0.0/16, fe80::/10), where cloud metadata services live.");

            HttpResponse<String> alsoInvalid = admin(gateway, "/model/new", """
                    {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "http://u:db-password-123@example.com",
                     "weight": -1}}""");
            assertRefused(alsoInvalid, "litellm_params.api_base", "api_base_not_allowed");
            assertThat(error(alsoInvalid).path("message").asText()).as("the entry's other problems are told too")
                    .contains("litellm_params.weight: -1 (expected: >= 0)");

            HttpResponse<String> local = admin(gateway, "/model/new", """
                    {"model_name": "local", "litellm_params": {"model": "openai/m", "api_base": "%s"}, "model_info": {"id": "local-1"}}"""
                    .formatted(upstream.baseUrl()));
            assertThat(local.statusCode()).as("loopback stays allowed: " + local.body()).isEqualTo(200);
            assertRefused(admin(gateway, "/model/update", """
                    {"model_info": {"id": "local-1"}, "litellm_params": {"api_base": "http://[::ffff:a9fe:a9fe]"}}"""),
                    "litellm_params.api_base", "api_base_not_allowed");
            assertThat(chat(gateway, "local").statusCode()).as("served as it was").isEqualTo(200);
            assertThat(upstream.requests()).isEqualTo(1);
        }
    }

    @Test
    void theOperatorNarrowsAndWidensTheNetworks() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("upstream", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                        admin_api_base_denied_networks: [127.0.0.0/8]
                          admin_api_base_allowed_networks: [169.254.170.2/32]"""), Map.of("UPSTREAM_KEY", "k"))) {
            assertRefused(admin(gateway, "/model/new", """
                    {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "%s"}}""".formatted(upstream.baseUrl())),
                    "litellm_params.api_base", "api_base_not_allowed");
            assertThat(admin(gateway, "/model/new", """
                    {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "http://169.254.170.2"}}""")
                    .statusCode()).isEqualTo(200);
            assertRefused(admin(gateway, "/model/new", """
                    {"model_name": "g", "litellm_params": {"model": "openai/m", "api_base": "http://169.254.169.254"}}"""),
                    "litellm_params.api_base", "api_base_not_allowed");
        }
    }
}
