package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Configs;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code GET /routes}, taken from the route table itself, and readiness in LiteLLM's shape. */
class RoutesAndReadinessTest {
    private static final String MASTER = "sk-1234";
    private final String prefix = TestRedis.newPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void routesListsEveryRouteTheTableAnswers() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up");
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            HttpResponse<String> answer = gateway.get("/routes");

            assertThat(answer.statusCode()).isEqualTo(200);
            JsonNode routes = Json.parse(answer.body().getBytes()).path("routes");
            List<String> paths = routes.findValuesAsText("path");
            assertThat(paths).contains("/v1/chat/completions", "/chat/completions", "/v1/models", "/model/info",
                    "/model_group/info", "/routes", "/health/readiness", "/key/generate", "/v1/models/{model}",
                    "/v1/responses/{response_id}");
            assertThat(paths).isSorted();
            JsonNode chat = routes.get(paths.indexOf("/v1/chat/completions"));
            assertThat(chat).isEqualTo(Json.parse("""
                    {"path":"/v1/chat/completions","methods":["POST"],"name":"v1_chat_completions","endpoint":"v1_chat_completions"}"""
                    .getBytes()));
            assertThat(routes.get(paths.indexOf("/v1/responses/{response_id}")).path("methods").toString())
                    .isEqualTo("[\"GET\",\"DELETE\"]");
            // Each listed path is one the table answers: none is an unknown route.
            List<String> unknown = new ArrayList<>();
            for (JsonNode route : routes) {
                String path = route.path("path").asText().replace("{model}", "chat").replace("{response_id}", "resp_x");
                String method = route.path("methods").get(0).asText();
                HttpResponse<String> reached = gateway.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                        .method(method, HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json").build());
                if (reached.body().contains("\"unknown_route\"") || reached.statusCode() == 405) {
                    unknown.add(method + " " + path);
                }
            }
            assertThat(unknown).isEmpty();
        }
    }

    @Test
    void readinessWithoutAStoreSaysNotConnected() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up");
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            HttpResponse<String> ready = gateway.get("/health/readiness");

            assertThat(ready.statusCode()).isEqualTo(200);
            JsonNode body = Json.parse(ready.body().getBytes());
            assertThat(body.path("status").asText()).isEqualTo("healthy");
            assertThat(body.path("db").asText()).isEqualTo("Not connected");
            assertThat(body.path("cache").isNull()).isTrue();
            assertThat(body.path("litellm_version").asText()).isEqualTo("0.1.0.dev0");
            assertThat(body.path("success_callbacks").toString()).isEqualTo("[]");
            assertThat(body.has("last_updated")).isFalse();
            assertThat(body.path("router_state").asText()).isEqualTo("in-memory");
        }
    }

    @Test
    void readinessWithAStoreRedisACacheAndACallbackTellsEach() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                ScriptedUpstream upstream = ScriptedUpstream.start("up");
                ScriptedUpstream logs = ScriptedUpstream.start("logs");
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: chat, litellm_params: {model: openai/m, api_base: %s}}
                        litellm_settings: {cache: true, success_callback: [generic_api]}
                        router_settings:
                        %s
                        general_settings: {master_key: %s, %s}
                        """.formatted(upstream.baseUrl(), TestRedis.routerSettings(TestRedis.PORT, prefix), MASTER,
                        store.generalSetting()), Map.of("GENERIC_LOGGER_ENDPOINT", logs.baseUrl() + "/log"))) {
            JsonNode body = Json.parse(gateway.get("/health/readiness").body().getBytes());

            assertThat(body.path("status").asText()).isEqualTo("healthy");
            assertThat(body.path("db").asText()).isEqualTo("connected");
            assertThat(body.path("cache").asText()).isEqualTo("redis"); // the router's Redis serves the cache too, as in LiteLLM
            assertThat(body.path("litellm_version").asText()).isEqualTo("0.1.0.dev0");
            assertThat(body.path("success_callbacks").toString()).isEqualTo("[\"generic_api\"]");
            assertThat(body.path("last_updated").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d.*");
            assertThat(body.path("router_state").asText()).isEqualTo("redis: connected");
        }
    }
}
