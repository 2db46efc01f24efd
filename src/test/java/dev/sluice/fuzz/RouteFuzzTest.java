package dev.sluice.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.fuzz.RouteSeeds.Seed;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A bounded fuzzer over the model-call, admin and admin UI routes: a few thousand requests,
 * each a valid one with one mutation ({@link Mutator}), sent to a gateway with a store, a
 * master key and a real upstream, as the master key, a virtual key, no one, or a UI session
 * cookie whole or mangled ({@link Credentials}); the UI's sign-in, session and file routes
 * ({@link UiFuzz}); and once a run, bodies at the edges of the parse and size limits and
 * lengths declared but never sent ({@link LimitProbes}). Every answer must come within the
 * time limit, never be a 500 of Sluice's own (a 503 must say when to come back), and every
 * error must be in its route's error shape ({@link FuzzAnswer}); afterwards an ordinary call
 * is still served. The seed is fixed, so a failure repeats; {@code -Dsluice.fuzz.seed=N} and
 * {@code -Dsluice.fuzz.requests=N} try others.
 */
class RouteFuzzTest {
    private static final long SEED = Long.getLong("sluice.fuzz.seed", 20261204L);
    private static final int REQUESTS = Integer.getInteger("sluice.fuzz.requests", 3000);
    private static final String MASTER = "sk-1234";

    @Test
    void mutatedRequestsToTheModelAdminAndUiRoutesGetDocumentedAnswers() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: fuzz-chat, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}}
                          - {model_name: fuzz-embed, litellm_params: {model: openai/text-embedding-3-small, api_base: %1$s}, model_info: {mode: embedding}}
                        general_settings:
                          master_key: %s
                          request_body_timeout_seconds: 1
                          %s
                        """.formatted(upstream.baseUrl(), MASTER, store.generalSetting()))) {
            String key = Json.parse(admin(gateway, "/key/generate", "{\"key_alias\": \"fuzz\"}").body().getBytes()).path("key").asText();
            admin(gateway, "/team/new", "{\"team_id\": \"fuzz-team\"}");
            admin(gateway, "/user/new", "{\"user_id\": \"fuzz-user\", \"auto_create_key\": false}");
            admin(gateway, "/organization/new", "{\"organization_id\": \"fuzz-org\"}");
            admin(gateway, "/customer/new", "{\"user_id\": \"fuzz-customer\"}");
            Credentials credentials = signedIn(gateway, key);
            List<Seed> seeds = RouteSeeds.of(upstream.baseUrl(), key);
            Random random = new Random(SEED);
            Mutator mutator = new Mutator(random);
            FuzzClient client = new FuzzClient(gateway);
            UiFuzz ui = new UiFuzz(client, mutator, random, credentials, gateway::uri);
            for (int i = 0; i < REQUESTS && !client.enoughFound(); i++) {
                int kind = random.nextInt(100);
                if (kind < 70) {
                    mutated(gateway, client, seeds.get(random.nextInt(seeds.size())), mutator, random, credentials);
                } else if (kind < 85) {
                    ui.next();
                } else {
                    query(client, RouteSeeds.QUERIES.get(random.nextInt(RouteSeeds.QUERIES.size())) + mutator.queryValue(),
                            random, credentials);
                }
            }
            new LimitProbes(client, gateway::uri, MASTER).run();

            assertThat(client.findings()).as("answers outside the routes' documented shapes (seed %d)", SEED).isEmpty();
            HttpResponse<String> ordinary = gateway.post("/v1/chat/completions", Chat.body("fuzz-chat", "still there?"),
                    "Authorization", "Bearer " + MASTER);
            assertThat(ordinary.statusCode()).as("an ordinary call after the fuzzing: %s", ordinary.body()).isEqualTo(200);
            assertThat(gateway.get("/health/liveliness").statusCode()).as("the gateway still serves").isEqualTo(200);
        }
    }

    private static HttpResponse<String> admin(TestGateway gateway, String path, String body) {
        HttpResponse<String> answer = gateway.post(path, body, "Authorization", "Bearer " + MASTER);
        assertThat(answer.statusCode()).as("%s: %s", path, answer.body()).isEqualTo(200);
        return answer;
    }

    /** Sessions of the master key and of {@code key}, signed in as the UI does. */
    private static Credentials signedIn(TestGateway gateway, String key) throws Exception {
        List<String> sessions = new ArrayList<>();
        List<String> tokens = new ArrayList<>();
        String name = null;
        for (String signingIn : List.of(MASTER, key)) {
            HttpResponse<String> answer = gateway.post("/ui/api/session", "{\"key\": \"" + signingIn + "\"}");
            assertThat(answer.statusCode()).as("sign-in: %s", answer.body()).isEqualTo(200);
            String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
            name = cookie.substring(0, cookie.indexOf('='));
            sessions.add(cookie.substring(cookie.indexOf('=') + 1));
            tokens.add(Json.parse(answer.body().getBytes(StandardCharsets.UTF_8)).path("csrf_token").asText());
        }
        return new Credentials(MASTER, key, name, sessions, tokens);
    }

    private static void mutated(TestGateway gateway, FuzzClient client, Seed seed, Mutator mutator, Random random,
            Credentials credentials) throws IOException {
        byte[] body = mutator.mutate((ObjectNode) Json.parse(seed.body().getBytes(StandardCharsets.UTF_8)));
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri(seed.path())).timeout(FuzzClient.ANSWER_WITHIN)
                .header("Content-Type", random.nextInt(20) == 0 ? "text/plain" : "application/json")
                .method(seed.method(), HttpRequest.BodyPublishers.ofByteArray(body));
        if (seed.path().startsWith("/v1/messages")) {
            request.header("anthropic-version", "2023-06-01");
        }
        List<String> headers = credentials.draw(random);
        for (int h = 0; h < headers.size(); h += 2) {
            request.header(headers.get(h), headers.get(h + 1));
        }
        String sent = seed.method() + " " + seed.path() + " " + who(headers) + " "
                + FuzzAnswer.abbreviated(new String(body, StandardCharsets.UTF_8));
        client.send(request.build(), seed.path(), sent);
    }

    /**
     * A GET of {@code target} over a raw socket, as an HTTP client would refuse to send a query
     * that is not valid percent-encoding.
     */
    private static void query(FuzzClient client, String target, Random random, Credentials credentials) {
        List<String> headers = credentials.draw(random);
        StringBuilder head = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1");
        for (int h = 0; h < headers.size(); h += 2) {
            head.append("\r\n").append(headers.get(h)).append(": ").append(headers.get(h + 1));
        }
        client.sendRaw(target, head.toString(), new byte[0], "GET " + FuzzAnswer.abbreviated(target) + " " + who(headers));
    }

    /** Who a request's headers present, for a finding's description. */
    private static String who(List<String> headers) {
        return headers.isEmpty() ? "(no credentials)" : "(" + FuzzAnswer.abbreviated(String.join(": ", headers)) + ")";
    }
}
