package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The model API over HTTP against gateways sharing one PostgreSQL store: models added,
 * changed and deleted through one gateway are served that way by it at once, by another
 * within seconds, and by a gateway started afterwards from its first request.
 */
class ModelApiTest {
    private static final String MASTER = "sk-admin";

    private static String config(TestDatabase store, MockUpstream configured) {
        return """
                model_list:
                  - {model_name: base, litellm_params: {model: openai/base, api_base: %s}, model_info: {id: from-file}}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(configured.baseUrl(), MASTER, store.generalSetting());
    }

    private static HttpResponse<String> admin(TestGateway gateway, String path, String body) {
        return gateway.post(path, body, "Authorization", "Bearer " + MASTER);
    }

    private static HttpResponse<String> chat(TestGateway gateway, String group) {
        return gateway.post("/v1/chat/completions", Chat.body(group, "hi"), "Authorization", "Bearer " + MASTER);
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes());
    }

    @Test
    void aModelAddedChangedAndDeletedThroughOneReplicaIsServedThatWayByBoth() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream file = MockUpstream.start(MockOptions.defaults("file", MockMode.OK));
                MockUpstream first = MockUpstream.start(MockOptions.defaults("first", MockMode.OK));
                MockUpstream second = MockUpstream.start(MockOptions.defaults("second", MockMode.OK));
                TestGateway a = TestGateway.start(config(store, file));
                TestGateway b = TestGateway.start(config(store, file))) {
            HttpResponse<String> added = admin(a, "/model/new", """
                    {"model_name": "live", "litellm_params": {"model": "openai/live", "api_base": "%s", "api_key": "sk-upstream-secret",
                     "rpm": 100}, "model_info": {"id": "live-1"}}""".formatted(first.baseUrl()));
            assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
            assertThat(json(added).path("model_id").asText()).isEqualTo("live-1");
            assertThat(json(added).path("ignored_keys").isEmpty()).as(added.body()).isTrue();

            assertThat(chat(a, "live").statusCode()).as("served by the replica that added it at once").isEqualTo(200);
            Eventually.until("b serves the added model", Duration.ofSeconds(5), () -> chat(b, "live").statusCode() == 200);
            assertThat(first.requests()).isEqualTo(2);

            HttpResponse<String> info = a.get("/model/info", "Authorization", "Bearer " + MASTER);
            assertThat(info.statusCode()).isEqualTo(200);
            assertThat(info.body()).doesNotContain("sk-upstream-secret");
            List<String> ids = json(info).path("data").findValuesAsText("id");
            assertThat(ids).containsExactly("from-file", "live-1");
            JsonNode live = json(a.get("/v1/model/info?litellm_model_id=live-1", "Authorization", "Bearer " + MASTER)).path("data");
            assertThat(live).hasSize(1);
            assertThat(live.get(0).path("model_info").path("db_model").asBoolean()).isTrue();
            assertThat(live.get(0).path("model_info").path("has_api_key").asBoolean()).isTrue();
            assertThat(live.get(0).path("litellm_params").path("rpm").asInt()).isEqualTo(100);

            HttpResponse<String> moved = admin(b, "/model/update", """
                    {"model_info": {"id": "live-1"}, "litellm_params": {"api_base": "%s", "api_key": "sk-upstream-secret", "rpm": null,
                     "max_retries": 3}}"""
                    .formatted(second.baseUrl()));
            assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
            assertThat(json(moved).path("ignored_keys").toString()).as("what the change holds that Sluice does not act on")
                    .isEqualTo("[\"litellm_params.max_retries\"]");
            assertThat(chat(b, "live").statusCode()).isEqualTo(200);
            assertThat(second.requests()).as("b serves the change at once").isEqualTo(1);
            Eventually.until("a serves the change", Duration.ofSeconds(5), () -> {
                chat(a, "live");
                return second.requests() >= 3;
            });
            JsonNode changed = json(a.get("/model/info?litellm_model_id=live-1", "Authorization", "Bearer " + MASTER)).path("data");
            assertThat(changed.get(0).path("litellm_params").has("rpm")).as("a null removes the field").isFalse();
            assertThat(changed.get(0).path("model_info").path("has_api_key").asBoolean()).as("the rest is kept").isTrue();

            HttpResponse<String> deleted = admin(a, "/model/delete", "{\"id\": \"live-1\"}");
            assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
            assertThat(chat(a, "live").statusCode()).isEqualTo(400);
            Eventually.until("b no longer serves it", Duration.ofSeconds(5), () -> chat(b, "live").statusCode() == 400);
            assertThat(admin(a, "/model/delete", "{\"id\": \"live-1\"}").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void aGatewayStartedLaterServesTheStoredModelsFromItsFirstRequest() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream file = MockUpstream.start(MockOptions.defaults("file", MockMode.OK));
                MockUpstream live = MockUpstream.start(MockOptions.defaults("live", MockMode.OK))) {
            try (TestGateway a = TestGateway.start(config(store, file))) {
                assertThat(admin(a, "/model/new", """
                        {"model_name": "live", "litellm_params": {"model": "openai/live", "api_base": "%s"}}"""
                        .formatted(live.baseUrl())).statusCode()).isEqualTo(200);
            }
            try (TestGateway restarted = TestGateway.start(config(store, file))) {
                HttpResponse<String> answer = chat(restarted, "live");
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                assertThat(live.requests()).isEqualTo(1);
            }
        }
    }

    @Test
    void badChangesAreRefusedWithTheirReasonAndChangeNothing() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream file = MockUpstream.start(MockOptions.defaults("file", MockMode.OK));
                TestGateway a = TestGateway.start(config(store, file))) {
            assertThat(admin(a, "/model/new", """
                    {"model_name": "live", "litellm_params": {"model": "openai/live", "api_base": "%s"}, "model_info": {"id": "live-1"}}"""
                    .formatted(file.baseUrl())).statusCode()).isEqualTo(200);

            HttpResponse<String> invalid = admin(a, "/model/update", "{\"model_info\": {\"id\": \"live-1\"}, \"litellm_params\": {\"weight\": -1}}");
            assertThat(invalid.statusCode()).isEqualTo(400);
            assertThat(json(invalid).path("error").path("message").asText()).contains("litellm_params.weight");
            assertThat(chat(a, "live").statusCode()).as("still served as it was").isEqualTo(200);

            HttpResponse<String> unknown = admin(a, "/model/update", "{\"model_info\": {\"id\": \"nope\"}, \"model_name\": \"x\"}");
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(json(unknown).path("error").path("code").asText()).isEqualTo("model_not_found");

            HttpResponse<String> fromFile = admin(a, "/model/delete", "{\"id\": \"from-file\"}");
            assertThat(fromFile.statusCode()).isEqualTo(400);
            assertThat(json(fromFile).path("error").path("message").asText()).contains("config file");
            assertThat(admin(a, "/model/update", "{\"model_info\": {\"id\": \"from-file\"}}").statusCode()).isEqualTo(400);

            HttpResponse<String> longId = admin(a, "/model/new", """
                    {"model_name": "g", "litellm_params": {"model": "openai/x", "api_base": "%s"}, "model_info": {"id": "%s"}}"""
                    .formatted(file.baseUrl(), "i".repeat(256)));
            assertThat(longId.statusCode()).as(longId.body()).isEqualTo(400);
            assertThat(json(longId).path("error").path("message").asText()).contains("model_info.id: 256 characters");
            assertThat(admin(a, "/model/new", """
                    {"model_name": "%s", "litellm_params": {"model": "openai/x", "api_base": "%s"}}"""
                    .formatted("g".repeat(300), file.baseUrl())).statusCode()).isEqualTo(400);

            assertThat(admin(a, "/model/delete", "{}").statusCode()).isEqualTo(400);
            assertThat(admin(a, "/model/delete", "[1]").statusCode()).isEqualTo(400);
            assertThat(admin(a, "/model/new", """
                    {"model_name": "again", "litellm_params": {"model": "openai/x", "api_base": "%s"}, "model_info": {"id": "live-1"}}"""
                    .formatted(file.baseUrl())).statusCode()).isEqualTo(409);

            String key = json(admin(a, "/key/generate", "{}")).path("key").asText();
            HttpResponse<String> notAdmin = a.post("/model/delete", "{\"id\": \"live-1\"}", "Authorization", "Bearer " + key);
            assertThat(notAdmin.statusCode()).isEqualTo(403);
            assertThat(chat(a, "live").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void withoutAMasterKeyModelsCannotBeManagedButCanBeListed() throws Exception {
        try (MockUpstream file = MockUpstream.start(MockOptions.defaults("file", MockMode.OK));
                TestGateway open = TestGateway.start("""
                        model_list:
                          - {model_name: base, litellm_params: {model: openai/base, api_base: %s, api_key: sk-hidden}}
                        """.formatted(file.baseUrl()))) {
            HttpResponse<String> refused = open.post("/model/new", "{}");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(json(refused).path("error").path("message").asText()).isEqualTo(
                    "Managing models needs a master key: set general_settings.master_key.");
            HttpResponse<String> info = open.get("/model/info");
            assertThat(info.statusCode()).isEqualTo(200);
            assertThat(info.body()).doesNotContain("sk-hidden");
            assertThat(json(info).path("data").get(0).path("model_info").path("db_model").asBoolean()).isFalse();
        }
    }
}
