package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Calls of deployments whose name says nothing of their model, over real sockets: an Azure
 * deployment priced by its {@code model_info.base_model}, and an alias priced by the model its
 * answer names, both charged to the caller's key; a deployment nothing prices is counted by a
 * gauge. Per million tokens: gpt-4o 2.50 in, 10.00 out; gpt-4o-mini 0.15 in, 0.60 out.
 */
class UnknownNameCostTest {
    private static final String MASTER = "sk-master-cost";
    private static final String ANSWER = """
            {"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"%s","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":500,"total_tokens":1500}}""";

    private final ScriptedUpstream azure = ScriptedUpstream.always("azure", new Reply(200, ANSWER.formatted("gpt-4o-2024-08-06"), null));
    private final ScriptedUpstream alias = ScriptedUpstream.always("alias", new Reply(200, ANSWER.formatted("gpt-4o-mini-2024-07-18"), null));
    private final ScriptedUpstream unknown = ScriptedUpstream.always("unknown", new Reply(200, ANSWER.formatted("house-model"), null));

    @AfterEach
    void stop() {
        azure.close();
        alias.close();
        unknown.close();
    }

    private TestGateway gateway(ScriptedUpstream aliasUpstream) {
        return TestGateway.start("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: azure/my-gpt4o-deployment, api_base: %1$s, api_key: azure-key, api_version: "2024-06-01"}
                    model_info: {id: azure-eu, base_model: azure/gpt-4o}
                  - model_name: alias
                    litellm_params: {model: openai/house-alias, api_base: %2$s/v1}
                    model_info: {id: alias-1}
                  - model_name: unknown
                    litellm_params: {model: openai/house-model, api_base: %3$s/v1}
                    model_info: {id: unknown-1}
                  - model_name: images
                    litellm_params: {model: openai/house-images, api_base: %3$s/v1, output_cost_per_image: 0.04}
                    model_info: {id: images-1, mode: image_generation}
                  - model_name: "house/*"
                    litellm_params: {model: "openai/*", api_base: %3$s/v1}
                    model_info: {id: wildcard-1}
                  - model_name: moderation
                    litellm_params: {model: openai/house-moderation, api_base: %3$s/v1}
                    model_info: {id: moderation-1, mode: moderation}
                general_settings: {master_key: %4$s}
                """.formatted(azure.baseUrl(), aliasUpstream.baseUrl(), unknown.baseUrl(), MASTER));
    }

    private static String key(TestGateway gateway) throws IOException {
        HttpResponse<String> generated = gateway.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.MAPPER.readTree(generated.body()).path("key").asText();
    }

    private static double spendOf(TestGateway gateway, String key) {
        try {
            JsonNode info = Json.MAPPER.readTree(gateway.get("/key/info?key=" + key, "Authorization", "Bearer " + MASTER).body());
            return info.path("info").path("spend").asDouble();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double cost(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return Double.parseDouble(answer.headers().firstValue("x-litellm-response-cost").orElseThrow());
    }

    @Test
    void anAzureDeploymentIsPricedByItsBaseModelAndChargedToTheKey() throws Exception {
        try (TestGateway gateway = gateway(alias)) {
            String key = key(gateway);

            double cost = cost(gateway.post("/v1/chat/completions", Chat.body("gpt-4o", "hello"), "Authorization", "Bearer " + key));

            // 1000 × 0.0000025 + 500 × 0.00001
            assertThat(cost).isEqualTo(0.0075);
            assertThat(azure.calls()).isEqualTo(1);
            Eventually.until("the key's spend is stored", Duration.ofSeconds(10), () -> spendOf(gateway, key) == 0.0075);
        }
    }

    @Test
    void anAliasIsPricedByTheModelItsAnswerNamesWholeOrStreamed() throws Exception {
        try (ScriptedUpstream streaming = ScriptedUpstream.start("alias-stream",
                new Reply(200, ANSWER.formatted("gpt-4o-mini-2024-07-18"), null),
                Reply.stream(End.COMPLETE, Chunk.now(Reply.delta("hi")), Chunk.now("data: {\"id\":\"c\",\"object\":"
                        + "\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[],"
                        + "\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":500,\"total_tokens\":1500}}\n\n"),
                        Chunk.now("data: [DONE]\n\n")));
                TestGateway gateway = gateway(streaming)) {
            String key = key(gateway);

            double whole = cost(gateway.post("/v1/chat/completions", Chat.body("alias", "hello"), "Authorization", "Bearer " + key));
            // 1000 × 0.00000015 + 500 × 0.0000006
            assertThat(whole).isEqualTo(0.00045);

            String raw = gateway.rawChat("HTTP/1.1", key, "{\"model\":\"alias\",\"stream\":true,\"stream_options\":"
                    + "{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}");
            assertThat(raw).startsWith("HTTP/1.1 200").contains("\r\nx-litellm-response-cost: 0.00045\r\n");

            Eventually.until("the key's spend is stored", Duration.ofSeconds(10), () -> spendOf(gateway, key) == 0.0009);
        }
    }

    @Test
    void aDeploymentNothingPricesIsCountedAndItsCallsCostZero() throws Exception {
        try (TestGateway gateway = gateway(alias)) {
            String key = key(gateway);

            assertThat(cost(gateway.post("/v1/chat/completions", Chat.body("unknown", "hello"), "Authorization", "Bearer " + key)))
                    .isZero();
            assertThat(gateway.metric("sluice_unpriced_deployments")).isEqualTo(2);
            String metrics = gateway.get("/metrics", "Authorization", "Bearer " + MASTER).body();
            assertThat(metrics).contains("sluice_deployment_unpriced{deployment=\"alias-1\",model_group=\"alias\"} 1.0",
                    "sluice_deployment_unpriced{deployment=\"unknown-1\",model_group=\"unknown\"} 1.0");
            assertThat(metrics).doesNotContain("sluice_deployment_unpriced{deployment=\"azure-eu\"");
            // Priced per image, priced per call by the model asked for, and free by nature: none is named.
            assertThat(metrics).doesNotContain("sluice_deployment_unpriced{deployment=\"images-1\"",
                    "sluice_deployment_unpriced{deployment=\"wildcard-1\"", "sluice_deployment_unpriced{deployment=\"moderation-1\"");

            // One added through the model API is counted from then on; one with a base_model is not.
            HttpResponse<String> added = gateway.post("/model/new", "{\"model_name\": \"late\", \"litellm_params\":"
                    + " {\"model\": \"openai/late-alias\", \"api_base\": \"" + unknown.baseUrl() + "/v1\"},"
                    + " \"model_info\": {\"id\": \"late-1\"}}", "Authorization", "Bearer " + MASTER);
            assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
            HttpResponse<String> priced = gateway.post("/model/new", "{\"model_name\": \"late\", \"litellm_params\":"
                    + " {\"model\": \"openai/late-4o\", \"api_base\": \"" + unknown.baseUrl() + "/v1\"},"
                    + " \"model_info\": {\"id\": \"late-2\", \"base_model\": \"gpt-4o\"}}", "Authorization", "Bearer " + MASTER);
            assertThat(priced.statusCode()).as(priced.body()).isEqualTo(200);
            assertThat(gateway.metric("sluice_unpriced_deployments")).isEqualTo(3);
            assertThat(gateway.get("/metrics", "Authorization", "Bearer " + MASTER).body()).contains("sluice_deployment_unpriced{deployment=\"late-1\",model_group=\"late\"} 1.0")
                    .doesNotContain("sluice_deployment_unpriced{deployment=\"late-2\"");
        }
    }
}
