package dev.sluice.ops.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Ports;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /health} probing on each call, over real sockets: what each kind of broken
 * deployment looks like in the answer, what the probe sends, who may ask and what they see.
 */
class HealthEndpointTest {
    private static final String MASTER = "sk-master-health";

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes());
    }

    private static HttpResponse<String> health(TestGateway gateway, String query, String key) {
        return gateway.get("/health" + query, "Authorization", "Bearer " + key);
    }

    @Test
    void probesEveryDeploymentAndSaysWhyEachUnhealthyOneFailed() throws IOException {
        int refused = Ports.refusing();
        try (MockUpstream ok = MockUpstream.start(MockOptions.defaults("ok", MockMode.OK));
                MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream auth = MockUpstream.start(MockOptions.defaults("auth", MockMode.AUTH));
                MockUpstream hang = MockUpstream.start(MockOptions.defaults("hang", MockMode.HANG));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/ok-model, api_base: %s, api_key: sk-ok-secret}, model_info: {id: ok}}
                          - {model_name: g, litellm_params: {model: openai/failing-model, api_base: %s, api_key: sk-failing-secret}, model_info: {id: failing}}
                          - {model_name: g, litellm_params: {model: openai/auth-model, api_base: %s, api_key: sk-wrong-secret}, model_info: {id: auth}}
                          - {model_name: g, litellm_params: {model: openai/refused-model, api_base: "http://127.0.0.1:%d/v1", api_key: sk-refused-secret}, model_info: {id: refused}}
                          - {model_name: g, litellm_params: {model: openai/hang-model, api_base: %s, timeout: 0.4}, model_info: {id: hang}}
                        general_settings: {master_key: %s}
                        """.formatted(ok.baseUrl(), failing.baseUrl(), auth.baseUrl(), refused, hang.baseUrl(), MASTER))) {
            Instant before = Instant.now();
            HttpResponse<String> answer = health(gateway, "", MASTER);

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            ObjectNode body = (ObjectNode) json(answer);
            Instant checkedAt = Instant.parse(body.remove("checked_at").asText());
            assertThat(checkedAt).isBetween(before.minusSeconds(1), Instant.now());
            assertThat(body).isEqualTo(Json.parse("""
                    {"healthy_endpoints": [
                       {"model": "openai/ok-model", "api_base": "%s", "model_name": "g", "model_id": "ok"}],
                     "unhealthy_endpoints": [
                       {"model": "openai/failing-model", "api_base": "%s", "model_name": "g", "model_id": "failing",
                        "error": "HTTP 500: [failing] internal error", "failure_class": "server"},
                       {"model": "openai/auth-model", "api_base": "%s", "model_name": "g", "model_id": "auth",
                        "error": "HTTP 401: [auth] Incorrect API key provided.", "failure_class": "auth"},
                       {"model": "openai/refused-model", "api_base": "http://127.0.0.1:%d/v1", "model_name": "g", "model_id": "refused",
                        "error": "connection refused", "failure_class": "transport"},
                       {"model": "openai/hang-model", "api_base": "%s", "model_name": "g", "model_id": "hang",
                        "error": "timed out after 0.4 s", "failure_class": "timeout"}],
                     "healthy_count": 1,
                     "unhealthy_count": 4}
                    """.formatted(ok.baseUrl(), failing.baseUrl(), auth.baseUrl(), refused, hang.baseUrl()).getBytes()));
            assertThat(answer.body()).doesNotContain("sk-ok-secret", "sk-failing-secret", "sk-wrong-secret", "sk-refused-secret",
                    MASTER);

            assertThat(ok.receivedBodies()).containsExactly(Json.parse("""
                    {"model": "ok-model", "messages": [{"role": "user", "content": "ping"}], "max_tokens": 1}""".getBytes()));
            assertThat(ok.receivedHeaders().get(0)).containsEntry("authorization", "Bearer sk-ok-secret");
            assertThat(List.of(failing.requests(), auth.requests(), hang.requests())).containsExactly(1, 1, 1);
        }
    }

    @Test
    void anUpstreamThatQuotesTheKeyOrAnswersOddlyGetsAShortErrorWithoutTheKey() throws IOException {
        String page = "<html>" + "x".repeat(1000) + "</html>";
        try (ScriptedUpstream echo = ScriptedUpstream.start("echo",
                        new Reply(401, "{\"error\":{\"message\":\"Incorrect API key provided: sk-echoed-secret.\"}}", null));
                ScriptedUpstream notJson = ScriptedUpstream.start("not-json", new Reply(200, "OK", null, "text/plain"));
                ScriptedUpstream html = ScriptedUpstream.start("html", new Reply(502, page, null, "text/html"));
                ScriptedUpstream limited = ScriptedUpstream.start("limited",
                        new Reply(429, "{\"error\":{\"message\":\"slow down\"}}", "30"));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, api_key: sk-echoed-secret}, model_info: {id: echo}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: not-json}}
                          - {model_name: g, litellm_params: {model: openai/c, api_base: %s}, model_info: {id: html}}
                          - {model_name: g, litellm_params: {model: openai/d, api_base: %s}, model_info: {id: limited}}
                        """.formatted(echo.baseUrl(), notJson.baseUrl(), html.baseUrl(), limited.baseUrl()))) {
            HttpResponse<String> answer = gateway.get("/health");
            JsonNode unhealthy = json(answer).path("unhealthy_endpoints");

            assertThat(answer.body()).doesNotContain("sk-echoed-secret");
            assertThat(unhealthy.findValuesAsText("error")).containsExactly(
                    "HTTP 401: Incorrect API key provided: ****cret.",
                    "answered 200 with a body that is not a JSON object",
                    "HTTP 502: " + page.substring(0, HealthProbe.MAX_ERROR_CHARS - "HTTP 502: ".length() - 1) + "…",
                    "HTTP 429: slow down");
            assertThat(unhealthy.findValuesAsText("failure_class")).containsExactly("auth", "server", "server", "rate_limited");
        }
    }

    @Test
    void probesRunAtOnceSoTheAnswerTakesAsLongAsTheSlowestProbe() {
        try (MockUpstream hang = MockUpstream.start(MockOptions.defaults("hang", MockMode.HANG));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %1$s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %1$s}, model_info: {id: b}}
                          - {model_name: g, litellm_params: {model: openai/c, api_base: %1$s}, model_info: {id: c}}
                        general_settings: {health_check_timeout: 2}
                        """.formatted(hang.baseUrl()))) {
            long started = System.nanoTime();
            HttpResponse<String> answer = gateway.get("/health");
            long tookMillis = (System.nanoTime() - started) / 1_000_000;

            assertThat(answer.body()).contains("\"unhealthy_count\":3", "timed out after 2 s");
            assertThat(tookMillis).as("three 2 s probes one after another would take 6 s").isBetween(1_950L, 5_000L);
        }
    }

    @Test
    void embeddingAndCompletionDeploymentsAreProbedWithTheirOwnCall() throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: vectors, litellm_params: {model: openai/embed-model, api_base: %1$s}, model_info: {id: e, mode: embedding}}
                          - {model_name: text, litellm_params: {model: openai/text-model, api_base: %1$s}, model_info: {id: t, mode: completion}}
                        """.formatted(upstream.baseUrl()))) {
            JsonNode body = json(gateway.get("/health"));

            assertThat(body.path("healthy_count").asInt()).as(body.toString()).isEqualTo(2);
            assertThat(upstream.receivedBodies()).containsExactlyInAnyOrder(
                    Json.parse("{\"model\": \"embed-model\", \"input\": \"ping\"}".getBytes()),
                    Json.parse("{\"model\": \"text-model\", \"prompt\": \"ping\", \"max_tokens\": 1}".getBytes()));
        }
    }

    @Test
    void moderationAndRerankDeploymentsAreProbedWithTheirOwnCall() throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: mod, litellm_params: {model: openai/mod-model, api_base: %1$s}, model_info: {id: m, mode: moderation}}
                          - {model_name: rank, litellm_params: {model: hosted_vllm/rank-model, api_base: %1$s}, model_info: {id: r, mode: rerank}}
                        """.formatted(upstream.baseUrl()))) {
            JsonNode body = json(gateway.get("/health"));

            assertThat(body.path("healthy_count").asInt()).as(body.toString()).isEqualTo(2);
            assertThat(upstream.receivedBodies()).containsExactlyInAnyOrder(
                    Json.parse("{\"model\": \"mod-model\", \"input\": \"ping\"}".getBytes()),
                    Json.parse("{\"model\": \"rank-model\", \"query\": \"ping\", \"documents\": [\"ping\"]}".getBytes()));
        }
    }

    @Test
    void needsAKeyWhenAMasterKeyIsSetAndLeavesTheProbeRoutesOpen() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        general_settings: {master_key: %s}
                        """.formatted(upstream.baseUrl(), MASTER))) {
            HttpResponse<String> keyless = gateway.get("/health");
            assertThat(keyless.statusCode()).isEqualTo(401);
            assertThat(keyless.body()).contains("\"error\"");
            assertThat(health(gateway, "", "sk-not-a-key").statusCode()).isEqualTo(401);
            assertThat(upstream.requests()).as("nothing is probed for a refused caller").isZero();

            assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/health/readiness").statusCode()).isEqualTo(200);
            assertThat(gateway.post("/health", "{}", "Authorization", "Bearer " + MASTER).statusCode()).isEqualTo(405);
        }
    }

    @Test
    void withoutBackgroundRoundsOnlyTheMasterKeyProbesAndModelNarrowsToOneGroup() throws IOException {
        try (MockUpstream a = MockUpstream.start(MockOptions.defaults("a", MockMode.OK));
                MockUpstream b = MockUpstream.start(MockOptions.defaults("b", MockMode.FAIL));
                TestGateway gateway = TestGateway.start(twoGroups(a, b, ""))) {
            String key = generate(gateway);

            // A probe is a real call on the deployment's key, outside the caller's budget and limits.
            HttpResponse<String> refused = health(gateway, "", key);
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(json(refused).path("error").path("code").asText()).isEqualTo("master_key_required");
            assertThat(json(refused).path("error").path("message").asText()).contains("background_health_checks");
            assertThat(a.requests() + b.requests()).as("nothing probed for a virtual key").isZero();

            HttpResponse<String> forbidden = health(gateway, "?model=group-b", key);
            assertThat(forbidden.statusCode()).isEqualTo(400);
            assertThat(json(forbidden).path("error").path("message").asText())
                    .isEqualTo("Invalid model name passed in model=group-b. Model groups you may use: group-a.");
            assertThat(b.requests()).isZero();

            JsonNode onlyB = json(health(gateway, "?model=group-b", MASTER));
            assertThat(onlyB.path("unhealthy_endpoints").findValuesAsText("model_id")).containsExactly("b");
            assertThat(onlyB.path("healthy_count").asInt()).isZero();
            assertThat(a.requests()).as("?model= probes that group only").isZero();

            HttpResponse<String> unknown = health(gateway, "?model=nope", MASTER);
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(json(unknown).path("error").path("code").asText()).isEqualTo("model_not_found");
        }
    }

    @Test
    void withBackgroundRoundsAVirtualKeySeesItsGroupsFromTheLatestRoundWithoutAProbe() throws IOException {
        try (MockUpstream a = MockUpstream.start(MockOptions.defaults("a", MockMode.OK));
                MockUpstream b = MockUpstream.start(MockOptions.defaults("b", MockMode.FAIL));
                TestGateway gateway = TestGateway.start(twoGroups(a, b, ", background_health_checks: true, health_check_interval: 3600"))) {
            String key = generate(gateway);
            // The master key's answer waits for the first round; after it, none comes for an hour.
            assertThat(json(health(gateway, "", MASTER)).path("healthy_count").asInt()).isEqualTo(1);
            long probedBefore = a.requests() + b.requests();

            JsonNode seen = json(health(gateway, "", key));
            assertThat(seen.path("healthy_endpoints").findValuesAsText("model_id")).containsExactly("a");
            assertThat(seen.path("unhealthy_count").asInt()).as("group-b is not the key's to see").isZero();
            assertThat(a.requests() + b.requests()).as("answered from the latest round").isEqualTo(probedBefore);
        }
    }

    /** Two groups on {@code a} and {@code b}, the master key, and {@code general} more general settings. */
    private static String twoGroups(MockUpstream a, MockUpstream b, String general) {
        return """
                model_list:
                  - {model_name: group-a, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                  - {model_name: group-b, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: b}}
                general_settings: {master_key: %s%s}
                """.formatted(a.baseUrl(), b.baseUrl(), MASTER, general);
    }

    private static String generate(TestGateway gateway) throws IOException {
        HttpResponse<String> generated = gateway.post("/key/generate", "{\"models\": [\"group-a\"]}", "Authorization",
                "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return json(generated).path("key").asText();
    }
}
