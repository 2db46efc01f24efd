package dev.sluice.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.json.Json;
import dev.sluice.mock.MockMode;
import dev.sluice.mock.MockOptions;
import dev.sluice.mock.MockUpstream;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A bounded fuzzer over the model-call and admin routes: a few thousand requests, each a valid
 * one with one mutation ({@link Mutator}), sent to a gateway with a store, a master key and a
 * real upstream. Every answer must come within the time limit, never be a 500 of Sluice's own
 * (a 503 must say when to come back), and every error must be in the OpenAI error shape. The
 * seed is fixed, so a failure repeats; {@code -Dsluice.fuzz.seed=N} and
 * {@code -Dsluice.fuzz.requests=N} try others.
 */
class RouteFuzzTest {
    private static final long SEED = Long.getLong("sluice.fuzz.seed", 20261204L);
    private static final int REQUESTS = Integer.getInteger("sluice.fuzz.requests", 3000);
    private static final String MASTER = "sk-1234";
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(15);

    /** GET routes whose query a mutation lands in. */
    private static final List<String> QUERIES = List.of("/model/info?litellm_model_id=", "/key/info?key=", "/team/info?team_id=",
            "/health?model=", "/key/list?page=", "/v1/models?x=");

    /** One valid request of a route: what a mutation starts from. */
    private record Seed(String path, String body) {}

    @Test
    void mutatedRequestsToTheModelAndAdminRoutesGetDocumentedAnswers() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: fuzz-chat, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}}
                          - {model_name: fuzz-embed, litellm_params: {model: openai/text-embedding-3-small, api_base: %1$s}, model_info: {mode: embedding}}
                        general_settings:
                          master_key: %s
                          %s
                        """.formatted(upstream.baseUrl(), MASTER, store.generalSetting()))) {
            String key = Json.parse(gateway.post("/key/generate", "{\"key_alias\": \"fuzz\"}", "Authorization", "Bearer " + MASTER)
                    .body().getBytes()).path("key").asText();
            assertThat(gateway.post("/team/new", "{\"team_id\": \"fuzz-team\"}", "Authorization", "Bearer " + MASTER).statusCode())
                    .isEqualTo(200);
            List<Seed> seeds = seeds(upstream.baseUrl(), key);
            Random random = new Random(SEED);
            Mutator mutator = new Mutator(random);
            List<String> failures = new ArrayList<>();
            for (int i = 0; i < REQUESTS && failures.size() < 10; i++) {
                Seed seed = seeds.get(random.nextInt(seeds.size()));
                byte[] body = mutator.mutate((ObjectNode) Json.parse(seed.body().getBytes(StandardCharsets.UTF_8)));
                HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri(seed.path())).timeout(ANSWER_WITHIN)
                        .header("Content-Type", random.nextInt(20) == 0 ? "text/plain" : "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
                if (random.nextInt(20) != 0) {
                    request.header("Authorization", "Bearer " + (seed.path().startsWith("/v1/") && random.nextBoolean() ? key : MASTER));
                }
                String sent = seed.path() + " " + abbreviated(new String(body, StandardCharsets.UTF_8));
                check(gateway, request.build(), sent, failures);
                if (random.nextInt(10) == 0) {
                    String query = QUERIES.get(random.nextInt(QUERIES.size())) + mutator.queryValue();
                    checkRaw(gateway, query, failures);
                }
            }
            assertThat(failures).as("answers outside the routes' documented shapes (seed %d)", SEED).isEmpty();
            assertThat(gateway.get("/health/liveliness").statusCode()).as("the gateway still serves").isEqualTo(200);
        }
    }

    private static List<Seed> seeds(String upstream, String key) {
        String model = "{\"model_name\": \"fuzz-added\", \"litellm_params\": {\"model\": \"openai/b\", \"api_base\": \"" + upstream
                + "\", \"api_key\": \"sk-upstream\", \"rpm\": 10}, \"model_info\": {\"id\": \"fuzz-model\"}}";
        return List.of(
                new Seed("/v1/chat/completions", "{\"model\": \"fuzz-chat\", \"messages\": [{\"role\": \"system\", \"content\": \"be brief\"},"
                        + " {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"hello\"}]}], \"max_tokens\": 16,"
                        + " \"temperature\": 0.5, \"stream\": false, \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\","
                        + " \"parameters\": {\"type\": \"object\"}}}], \"metadata\": {\"tags\": [\"a\"]}}"),
                new Seed("/v1/chat/completions", "{\"model\": \"fuzz-chat\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}],"
                        + " \"stream\": true, \"stream_options\": {\"include_usage\": true}, \"fallbacks\": [\"fuzz-chat\"], \"num_retries\": 1}"),
                new Seed("/v1/completions", "{\"model\": \"fuzz-chat\", \"prompt\": [\"hello\"], \"max_tokens\": 5}"),
                new Seed("/v1/embeddings", "{\"model\": \"fuzz-embed\", \"input\": [\"hello\", \"world\"], \"dimensions\": 8}"),
                new Seed("/key/generate", "{\"key_alias\": \"k\", \"max_budget\": 1.5, \"budget_duration\": \"1d\", \"models\": [\"fuzz-chat\"],"
                        + " \"rpm_limit\": 100, \"tpm_limit\": 1000, \"max_parallel_requests\": 2, \"team_id\": \"fuzz-team\","
                        + " \"model_max_budget\": {\"fuzz-chat\": {\"budget_limit\": 1, \"time_period\": \"1h\"}}, \"metadata\": {\"a\": 1},"
                        + " \"duration\": \"30d\"}"),
                new Seed("/key/update", "{\"key\": \"" + key + "\", \"max_budget\": 2, \"models\": [], \"rpm_limit\": null}"),
                new Seed("/key/delete", "{\"keys\": [\"sk-does-not-exist\"]}"),
                new Seed("/key/block", "{\"key\": \"sk-does-not-exist\"}"),
                new Seed("/team/new", "{\"team_alias\": \"t\", \"max_budget\": 10, \"models\": [\"fuzz-chat\"], \"tpm_limit\": 5,"
                        + " \"router_settings\": {\"num_retries\": 2, \"fallbacks\": [{\"fuzz-chat\": [\"fuzz-chat\"]}]}}"),
                new Seed("/team/update", "{\"team_id\": \"fuzz-team\", \"max_budget\": 20, \"budget_duration\": \"30d\"}"),
                new Seed("/team/delete", "{\"team_ids\": [\"no-such-team\"]}"),
                new Seed("/model/new", model),
                new Seed("/model/update", model),
                new Seed("/model/delete", "{\"id\": \"no-such-model\"}"),
                new Seed("/router/settings/update", "{\"num_retries\": 2, \"timeout\": 30, \"allowed_fails\": 3,"
                        + " \"fallbacks\": [{\"fuzz-chat\": [\"fuzz-chat\"]}]}"));
    }

    private static void check(TestGateway gateway, HttpRequest request, String sent, List<String> failures) {
        HttpResponse<String> answer;
        try {
            answer = gateway.client().send(request, HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            failures.add("no answer within " + ANSWER_WITHIN + ": " + sent);
            return;
        } catch (IOException e) {
            failures.add("connection failed (" + e + "): " + sent);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        int status = answer.statusCode();
        if (status == 500 || status > 504) {
            failures.add(status + " " + abbreviated(answer.body()) + " for " + sent);
        } else if (status == 503 && answer.headers().firstValue("Retry-After").isEmpty()) {
            failures.add("503 without Retry-After: " + abbreviated(answer.body()) + " for " + sent);
        } else if (status >= 400 && !inErrorShape(answer.body())) {
            failures.add(status + " not in the OpenAI error shape: " + abbreviated(answer.body()) + " for " + sent);
        }
    }

    /**
     * A GET of {@code target} over a raw socket, as an HTTP client would refuse to send a query
     * that is not valid percent-encoding.
     */
    private static void checkRaw(TestGateway gateway, String target, List<String> failures) {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout((int) ANSWER_WITHIN.toMillis());
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + MASTER
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(answer.substring(9, 12));
            int bodyAt = answer.indexOf("\r\n\r\n");
            String body = bodyAt < 0 ? "" : answer.substring(bodyAt + 4);
            if (status == 500 || status > 504 || (status >= 400 && !inErrorShape(body))) {
                failures.add(status + " " + abbreviated(body) + " for GET " + abbreviated(target));
            }
        } catch (SocketTimeoutException e) {
            failures.add("no answer within " + ANSWER_WITHIN + ": GET " + abbreviated(target));
        } catch (IOException | RuntimeException e) {
            failures.add("no readable answer (" + e + "): GET " + abbreviated(target));
        }
    }

    private static boolean inErrorShape(String body) {
        try {
            JsonNode error = Json.parse(body.getBytes(StandardCharsets.UTF_8)).path("error");
            return error.path("message").isTextual() && error.path("type").isTextual() && error.has("param") && error.has("code");
        } catch (IOException e) {
            return false;
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "… (" + text.length() + " chars)";
    }
}
