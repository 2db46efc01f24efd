package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a caller can learn of the models without calling one: {@code /model/info} with every
 * {@code model_info} field the config wrote, {@code /v1/models/{model}} and
 * {@code /model_group/info}, each limited to the groups the caller's key may use.
 */
class ModelLookupTest {
    private static final String MASTER = "sk-1234";
    private TestDatabase store;
    private ScriptedUpstream upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() {
        store = TestDatabases.h2();
        upstream = ScriptedUpstream.start("up");
        gateway = TestGateway.start("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o, api_base: %1$s, api_key: sk-upstream-secret, tpm: 1000, rpm: 10}
                    model_info:
                      id: four-1
                      mode: chat
                      supports_vision: true
                      supports_function_calling: false
                      base_model: azure/gpt-4o
                      team_label: {owner: search, tier: 2}
                  - model_name: gpt-4o
                    litellm_params: {model: hosted_vllm/gpt-4o, api_base: %1$s, tpm: 500, input_cost_per_token: 0.00001}
                    model_info: {id: four-2, max_input_tokens: 200000}
                  - model_name: openai/custom
                    litellm_params: {model: openai/custom-model, api_base: %1$s}
                    model_info: {id: custom-1, mode: embedding}
                general_settings: {master_key: %2$s, %3$s}
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting()));
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close();
        store.close();
    }

    @Test
    void modelInfoKeepsEveryWrittenFieldUnderTheCatalogsFacts() throws IOException {
        JsonNode data = json(gateway.get("/model/info?litellm_model_id=four-1", "Authorization", "Bearer " + MASTER)).path("data");

        assertThat(data).hasSize(1);
        JsonNode info = data.get(0).path("model_info");
        assertThat(info.path("id").asText()).isEqualTo("four-1");
        assertThat(info.path("mode").asText()).isEqualTo("chat");
        assertThat(info.path("supports_vision").asBoolean()).isTrue();
        assertThat(info.path("supports_function_calling").isBoolean()).isTrue();
        assertThat(info.path("supports_function_calling").asBoolean()).isFalse();
        assertThat(info.path("base_model").asText()).isEqualTo("azure/gpt-4o");
        assertThat(info.path("team_label")).isEqualTo(Json.parse("{\"owner\":\"search\",\"tier\":2}".getBytes()));
        // Filled from the catalog, as LiteLLM fills what the config leaves out.
        assertThat(info.path("max_input_tokens").asInt()).isEqualTo(128000);
        assertThat(info.path("input_cost_per_token").asDouble()).isEqualTo(2.5e-6);
        assertThat(info.path("output_cost_per_token").asDouble()).isEqualTo(1e-5);
        assertThat(info.path("litellm_provider").asText()).isEqualTo("openai");
        assertThat(info.path("has_api_key").asBoolean()).isTrue();
        assertThat(data.toString()).doesNotContain("sk-upstream-secret");

        JsonNode second = json(gateway.get("/model/info?litellm_model_id=four-2", "Authorization", "Bearer " + MASTER))
                .path("data").get(0).path("model_info");
        assertThat(second.path("max_input_tokens").asInt()).isEqualTo(200000); // the config's own wins
        assertThat(second.path("input_cost_per_token").asDouble()).isEqualTo(1e-5);
    }

    @Test
    void oneModelIsOpenAisModelObject() throws IOException {
        HttpResponse<String> found = gateway.get("/v1/models/gpt-4o", "Authorization", "Bearer " + MASTER);

        assertThat(found.statusCode()).isEqualTo(200);
        JsonNode model = json(found);
        assertThat(model.path("id").asText()).isEqualTo("gpt-4o");
        assertThat(model.path("object").asText()).isEqualTo("model");
        assertThat(model.path("owned_by").asText()).isEqualTo("sluice");
        assertThat(model.path("created").asLong()).isPositive();
        assertThat(model.size()).isEqualTo(4);
        // A group name with a slash in it, on both spellings of the route.
        assertThat(json(gateway.get("/models/openai/custom", "Authorization", "Bearer " + MASTER)).path("id").asText())
                .isEqualTo("openai/custom");
        assertThat(json(gateway.get("/v1/models/openai%2Fcustom", "Authorization", "Bearer " + MASTER)).path("id").asText())
                .isEqualTo("openai/custom");
    }

    @Test
    void anUnknownModelIs404ModelNotFound() throws IOException {
        HttpResponse<String> missing = gateway.get("/v1/models/gpt-9", "Authorization", "Bearer " + MASTER);

        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json(missing)).isEqualTo(Json.parse("""
                {"error":{"message":"The model `gpt-9` does not exist.","type":"invalid_request_error","param":"model","code":"model_not_found"}}"""
                .getBytes()));
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(("GET /v1/models/bad%zz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + MASTER
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String broken = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(broken).startsWith("HTTP/1.1 400").contains("\"code\":\"invalid_model_name\"");
        }
        assertThat(gateway.get("/v1/models/gpt-4o").statusCode()).isEqualTo(401);
    }

    @Test
    void aKeySeesOnlyTheModelsItMayUse() throws IOException {
        String key = generate("{\"models\": [\"openai/custom\"]}");

        assertThat(gateway.get("/v1/models/openai/custom", "Authorization", "Bearer " + key).statusCode()).isEqualTo(200);
        HttpResponse<String> denied = gateway.get("/v1/models/gpt-4o", "Authorization", "Bearer " + key);
        assertThat(denied.statusCode()).isEqualTo(404);
        assertThat(json(denied).at("/error/code").asText()).isEqualTo("model_not_found");

        JsonNode groups = json(gateway.get("/model_group/info", "Authorization", "Bearer " + key)).path("data");
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).path("model_group").asText()).isEqualTo("openai/custom");
        assertThat(gateway.get("/model_group/info?model_group=gpt-4o", "Authorization", "Bearer " + key).statusCode())
                .isEqualTo(404);
    }

    @Test
    void modelGroupInfoSumsAGroupsDeploymentsAsLitellmDoes() throws IOException {
        HttpResponse<String> answer = gateway.get("/model_group/info?model_group=gpt-4o", "Authorization", "Bearer " + MASTER);

        assertThat(answer.statusCode()).isEqualTo(200);
        JsonNode data = json(answer).path("data");
        assertThat(data).hasSize(1);
        assertThat(data.get(0)).isEqualTo(Json.parse("""
                {"model_group":"gpt-4o","providers":["openai","hosted_vllm"],"max_input_tokens":200000,"max_output_tokens":null,
                 "input_cost_per_token":1.0E-5,"output_cost_per_token":1.0E-5,"mode":"chat","tpm":1500,"rpm":10,
                 "supports_function_calling":false,"supports_parallel_function_calling":false,"supports_reasoning":false,
                 "supports_vision":true,"supports_web_search":false,"supported_openai_params":[]}""".getBytes()));

        JsonNode all = json(gateway.get("/model_group/info", "Authorization", "Bearer " + MASTER)).path("data");
        assertThat(all).hasSize(2);
        assertThat(all.findValuesAsText("model_group")).containsExactlyInAnyOrder("gpt-4o", "openai/custom");
        assertThat(all.findValuesAsText("mode")).containsExactlyInAnyOrder("chat", "embedding");
    }

    private String generate(String body) throws IOException {
        HttpResponse<String> generated = gateway.post("/key/generate", body, "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return json(generated).path("key").asText();
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes());
    }
}
