package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.router.RouterEvents;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /model/state} and {@code GET /calls/recent} over HTTP, with upstreams that fail
 * for real: a rate-limited deployment benched with its end, reason and failures; a group
 * whose failures count toward a bench; a call that retried and fell back, with its attempts
 * and headers; the filters; a virtual key that sees only its own, and not the text of a
 * shared deployment's failures; and failure messages masked with the key the deployment
 * failed with, whole before they are cut.
 */
class DataRoutesTest {
    private static final String MASTER = "sk-1234";
    private static final String UPSTREAM_KEY = "sk-upstream-secret-1";

    private static String config(ScriptedUpstream limited, ScriptedUpstream ok, ScriptedUpstream failing,
            ScriptedUpstream broken) {
        return """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: %1$s, api_key: %5$s, weight: 1000}, model_info: {id: limited}}
                  - {model_name: g, litellm_params: {model: openai/b, api_base: %2$s, weight: 1, rpm: 60}, model_info: {id: other}}
                  - {model_name: h, litellm_params: {model: openai/c, api_base: %3$s, weight: 1000}, model_info: {id: failing}}
                  - {model_name: h, litellm_params: {model: openai/d, api_base: %2$s, weight: 1}, model_info: {id: spare}}
                  - {model_name: x, litellm_params: {model: openai/e, api_base: %4$s}, model_info: {id: broken}}
                  - {model_name: y, litellm_params: {model: openai/f, api_base: %2$s}, model_info: {id: rescue}}
                  - {model_name: z, litellm_params: {model: openai/g, api_base: "https://api.example.com/v1", order: 2}, model_info: {id: far}}
                router_settings: {allowed_fails: 3, num_retries: 1, fallbacks: [{x: [y]}]}
                general_settings: {master_key: %6$s}
                """.formatted(limited.baseUrl(), ok.baseUrl(), failing.baseUrl(), broken.baseUrl(), UPSTREAM_KEY, MASTER);
    }

    private static JsonNode get(TestGateway gateway, String path, String key) throws IOException {
        HttpResponse<String> answer = gateway.get(path, "Authorization", "Bearer " + key);
        assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(200);
        return Json.parse(answer.body().getBytes());
    }

    private static JsonNode deployment(JsonNode state, String id) {
        for (JsonNode deployment : state.get("deployments")) {
            if (deployment.get("model_id").asText().equals(id)) {
                return deployment;
            }
        }
        throw new AssertionError("no deployment " + id + " in " + state);
    }

    private static List<String> ids(JsonNode calls) {
        List<String> ids = new ArrayList<>();
        calls.get("calls").forEach(call -> ids.add(call.get("call_id").asText()));
        return ids;
    }

    /**
     * {@code /calls/recent} once it holds {@code count} calls: a call joins it when its answer
     * has ended on the server, which may be just after the caller read the answer.
     */
    private static JsonNode recentCalls(TestGateway gateway, String key, int count) {
        return Eventually.value(count + " recent calls", Duration.ofSeconds(10), () -> {
            try {
                JsonNode calls = get(gateway, "/calls/recent", key);
                return calls.get("calls").size() == count ? Optional.of(calls) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static String callId(HttpResponse<String> answer) {
        return answer.headers().firstValue("x-litellm-call-id").orElseThrow();
    }

    @Test
    void benchesFailuresAndCallsAreShownAsTheyHappened() throws Exception {
        FakeClock clock = new FakeClock();
        try (ScriptedUpstream limited = ScriptedUpstream.always("limited",
                        new Reply(429, "{\"error\":{\"message\":\"busy for key " + UPSTREAM_KEY + "\"}}", "30"));
                ScriptedUpstream ok = ScriptedUpstream.start("ok");
                ScriptedUpstream failing = ScriptedUpstream.always("failing", Reply.status(500));
                ScriptedUpstream broken = ScriptedUpstream.always("broken", Reply.body(500, "application/json",
                        "{\"error\":{\"message\":\"down\"}}"));
                TestGateway gateway = TestGateway.start(config(limited, ok, failing, broken), Map.of(), RouterEvents.NONE, clock)) {
            HttpResponse<String> benched = gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "Authorization", "Bearer " + MASTER);
            assertThat(benched.statusCode()).as(benched.body()).isEqualTo(200);
            HttpResponse<String> counted = gateway.post("/v1/chat/completions", Chat.body("h", "hi"), "Authorization", "Bearer " + MASTER);
            assertThat(counted.statusCode()).as(counted.body()).isEqualTo(200);
            HttpResponse<String> fellBack = gateway.post("/v1/chat/completions", Chat.body("x", "hi"), "Authorization", "Bearer " + MASTER);
            assertThat(fellBack.statusCode()).as(fellBack.body()).isEqualTo(200);
            HttpResponse<String> unknown = gateway.post("/v1/chat/completions", Chat.body("nope", "hi"), "Authorization", "Bearer " + MASTER);
            assertThat(unknown.statusCode()).isEqualTo(400);

            JsonNode state = get(gateway, "/model/state", MASTER);
            JsonNode limitedState = deployment(state, "limited");
            assertThat(limitedState.get("state").asText()).isEqualTo("benched");
            assertThat(limitedState.get("benched_until").asText()).isEqualTo(FakeClock.START.plusSeconds(30).toString());
            assertThat(limitedState.get("bench_reason").asText()).isEqualTo("rate_limited");
            JsonNode failure = limitedState.get("recent_failures").get(0);
            assertThat(failure.get("at").asText()).isEqualTo(FakeClock.START.toString());
            assertThat(failure.get("failure_class").asText()).isEqualTo("rate_limited");
            assertThat(failure.get("status").asInt()).isEqualTo(429);
            assertThat(failure.get("message").asText()).startsWith("answered 429: busy for key ").doesNotContain(UPSTREAM_KEY);
            assertThat(limitedState.get("model_name").asText()).isEqualTo("g");
            assertThat(limitedState.get("provider").asText()).isEqualTo("openai");
            assertThat(limitedState.get("model").asText()).isEqualTo("openai/a");
            assertThat(limitedState.get("weight").asDouble()).isEqualTo(1000.0);
            assertThat(limitedState.get("rpm").isNull()).isTrue();
            assertThat(state.toString()).doesNotContain(UPSTREAM_KEY).doesNotContain("api_key");

            JsonNode other = deployment(state, "other");
            assertThat(other.get("state").asText()).isEqualTo("routable");
            assertThat(other.get("benched_until").isNull()).isTrue();
            assertThat(other.get("bench_reason").isNull()).isTrue();
            assertThat(other.get("recent_failures")).isEmpty();
            assertThat(other.get("rpm").asInt()).isEqualTo(60);
            JsonNode failingState = deployment(state, "failing");
            assertThat(failingState.get("state").asText()).as("failures within allowed_fails count toward a bench").isEqualTo("counting");
            assertThat(failingState.get("recent_failures").get(0).get("failure_class").asText()).isEqualTo("server");
            JsonNode far = deployment(state, "far");
            assertThat(far.get("api_base").asText()).isEqualTo("https://api.example.com/v1");
            assertThat(far.get("order").asInt()).isEqualTo(2);
            // A window of failures ends: the deployment is routable again; the bench lasts its 30 s.
            clock.advance(Duration.ofSeconds(61));
            JsonNode later = get(gateway, "/model/state", MASTER);
            assertThat(deployment(later, "failing").get("state").asText()).isEqualTo("routable");
            assertThat(deployment(later, "limited").get("state").asText()).isEqualTo("routable");
            assertThat(deployment(later, "limited").get("recent_failures")).hasSize(1);

            JsonNode calls = recentCalls(gateway, MASTER, 4);
            assertThat(ids(calls)).containsExactly(callId(unknown), callId(fellBack), callId(counted), callId(benched));
            JsonNode first = calls.get("calls").get(3);
            assertThat(first.get("model_group").asText()).isEqualTo("g");
            assertThat(first.get("deployment_id").asText()).isEqualTo("other");
            assertThat(first.get("status").asInt()).isEqualTo(200);
            assertThat(first.get("key_alias").isNull()).isTrue();
            assertThat(first.get("stream").asBoolean()).isFalse();
            assertThat(first.get("cache_hit").asBoolean()).isFalse();
            assertThat(first.get("started_at").asText()).isEqualTo(FakeClock.START.toString());
            JsonNode attempt = first.get("attempts").get(0);
            assertThat(attempt.get("deployment_id").asText()).isEqualTo("limited");
            assertThat(attempt.get("failure_class").asText()).isEqualTo("rate_limited");
            assertThat(attempt.get("status").asInt()).isEqualTo(429);
            assertThat(attempt.get("message").asText()).doesNotContain(UPSTREAM_KEY);
            JsonNode served = first.get("attempts").get(first.get("attempts").size() - 1);
            assertThat(served.get("deployment_id").asText()).isEqualTo("other");
            assertThat(served.get("failure_class").isNull()).isTrue();
            assertThat(served.get("status").isNull()).isTrue();
            assertThat(first.get("headers").get("x-litellm-model-id").asText()).isEqualTo("other");

            JsonNode rescued = calls.get("calls").get(1);
            assertThat(rescued.get("model_group").asText()).isEqualTo("y");
            assertThat(rescued.get("deployment_id").asText()).isEqualTo("rescue");
            assertThat(rescued.get("fallbacks").asInt()).isEqualTo(1);
            assertThat(rescued.get("retries").asInt()).as("num_retries: 1 repeats the broken deployment once").isEqualTo(1);
            List<String> tried = new ArrayList<>();
            rescued.get("attempts").forEach(a -> tried.add(a.get("model_group").asText() + "/" + a.get("deployment_id").asText()
                    + "/" + a.get("failure_class").asText() + "/" + a.get("status").asText()));
            assertThat(tried).containsExactly("x/broken/server/500", "x/broken/server/500", "y/rescue/null/null");
            assertThat(rescued.get("attempts").get(0).get("message").asText()).isEqualTo("answered 500: down");
            assertThat(rescued.get("headers").get("x-litellm-attempted-fallbacks").asText()).isEqualTo("1");
            assertThat(rescued.get("headers").get("x-litellm-model-id").asText()).isEqualTo("rescue");
            assertThat(rescued.get("headers").has("content-type")).isFalse();

            JsonNode refused = calls.get("calls").get(0);
            assertThat(refused.get("status").asInt()).isEqualTo(400);
            assertThat(refused.get("model_group").asText()).isEqualTo("nope");
            assertThat(refused.get("deployment_id").isNull()).isTrue();
            assertThat(refused.get("attempts")).isEmpty();

            assertThat(ids(get(gateway, "/calls/recent?model_group=x", MASTER))).containsExactly(callId(fellBack));
            assertThat(ids(get(gateway, "/calls/recent?deployment_id=limited", MASTER))).containsExactly(callId(benched));
            assertThat(ids(get(gateway, "/calls/recent?status=failure", MASTER))).containsExactly(callId(unknown));
            assertThat(ids(get(gateway, "/calls/recent?status=success&limit=2", MASTER))).containsExactly(callId(fellBack),
                    callId(counted));
            assertThat(ids(get(gateway, "/calls/recent?call_id=" + callId(counted), MASTER))).containsExactly(callId(counted));
            assertThat(ids(get(gateway, "/calls/recent?key_alias=nobody", MASTER))).isEmpty();
            for (String bad : List.of("limit=0", "limit=501", "limit=ten", "status=maybe")) {
                HttpResponse<String> answer = gateway.get("/calls/recent?" + bad, "Authorization", "Bearer " + MASTER);
                assertThat(answer.statusCode()).as(bad).isEqualTo(400);
                JsonNode error = Json.parse(answer.body().getBytes()).get("error");
                assertThat(error.get("param").asText()).isEqualTo(bad.substring(0, bad.indexOf('=')));
                assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
            }
            assertThat(gateway.get("/calls/recent").statusCode()).isEqualTo(401);
            assertThat(gateway.get("/model/state").statusCode()).isEqualTo(401);
        }
    }

    @Test
    void aVirtualKeySeesItsOwnCallsAndTheDeploymentsOfItsGroups() throws Exception {
        try (ScriptedUpstream limited = ScriptedUpstream.start("limited");
                ScriptedUpstream ok = ScriptedUpstream.start("ok");
                ScriptedUpstream failing = ScriptedUpstream.start("failing");
                ScriptedUpstream broken = ScriptedUpstream.start("broken");
                TestGateway gateway = TestGateway.start(config(limited, ok, failing, broken))) {
            String mine = key(gateway, "{\"key_alias\": \"mine\", \"models\": [\"g\", \"y\"]}");
            String theirs = key(gateway, "{\"key_alias\": \"theirs\"}");
            HttpResponse<String> own = gateway.post("/v1/chat/completions", Chat.stream("y", "hi"), "Authorization", "Bearer " + mine);
            assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
            HttpResponse<String> other = gateway.post("/v1/chat/completions", Chat.body("h", "hi"), "Authorization", "Bearer " + theirs);
            assertThat(other.statusCode()).isEqualTo(200);
            HttpResponse<String> admin = gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "Authorization", "Bearer " + MASTER);
            assertThat(admin.statusCode()).isEqualTo(200);

            recentCalls(gateway, MASTER, 3);
            JsonNode seen = get(gateway, "/calls/recent", mine);
            assertThat(ids(seen)).containsExactly(callId(own));
            JsonNode call = seen.get("calls").get(0);
            assertThat(call.get("key_alias").asText()).isEqualTo("mine");
            assertThat(call.get("key_name").asText()).isEqualTo("sk-..." + mine.substring(mine.length() - 4));
            assertThat(call.get("stream").asBoolean()).isTrue();
            assertThat(call.toString()).doesNotContain(mine);
            assertThat(ids(get(gateway, "/calls/recent?key_alias=theirs", mine))).as("another key's calls, asked by alias").isEmpty();
            assertThat(ids(get(gateway, "/calls/recent?key_alias=theirs", MASTER))).containsExactly(callId(other));
            assertThat(ids(get(gateway, "/calls/recent", MASTER))).containsExactly(callId(admin), callId(other), callId(own));

            List<String> visible = new ArrayList<>();
            get(gateway, "/model/state", mine).get("deployments").forEach(d -> visible.add(d.get("model_id").asText()));
            assertThat(visible).containsExactlyInAnyOrder("limited", "other", "rescue");
        }
    }

    @Test
    void aCallTheCacheAnsweredIsShownAsAHitOfNoDeploymentAndNoCost() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start("up");
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.001}, model_info: {id: a}}
                        litellm_settings: {cache: true, cache_params: {type: local}}
                        general_settings: {master_key: %s}
                        """.formatted(up.baseUrl(), MASTER))) {
            HttpResponse<String> first = gateway.post("/v1/chat/completions", Chat.body("g", "same"), "Authorization", "Bearer " + MASTER);
            HttpResponse<String> second = gateway.post("/v1/chat/completions", Chat.body("g", "same"), "Authorization", "Bearer " + MASTER);
            assertThat(up.calls()).isEqualTo(1);

            JsonNode calls = recentCalls(gateway, MASTER, 2).get("calls");
            assertThat(calls.get(0).get("call_id").asText()).isEqualTo(callId(second));
            assertThat(calls.get(0).get("cache_hit").asBoolean()).isTrue();
            assertThat(calls.get(0).get("deployment_id").isNull()).isTrue();
            assertThat(calls.get(0).get("attempts")).isEmpty();
            assertThat(calls.get(0).get("cost").asDouble()).isZero();
            assertThat(calls.get(1).get("call_id").asText()).isEqualTo(callId(first));
            assertThat(calls.get(1).get("cache_hit").asBoolean()).isFalse();
            assertThat(calls.get(1).get("deployment_id").asText()).isEqualTo("a");
            assertThat(calls.get(1).get("cost").asDouble()).isPositive();
            assertThat(calls.get(1).get("headers").get("x-litellm-response-cost").asDouble())
                    .isEqualTo(calls.get(1).get("cost").asDouble());
        }
    }

    private static final String OLD_KEY = "sk-old-upstream-key-0001";
    /** What of the old key would show if a cut went through it or it were not masked. */
    private static final String OLD_KEY_START = OLD_KEY.substring(0, OLD_KEY.length() - 4);

    /** Upstream error answers: the first quotes the key across the 500th character of its message, where messages are cut. */
    private static ScriptedUpstream failingTwice() {
        String late = "x".repeat(480 - "answered 500: ".length()) + OLD_KEY + " was refused";
        return ScriptedUpstream.start("rotating",
                Reply.body(500, "application/json", "{\"error\":{\"message\":\"" + late + "\"}}"),
                Reply.body(500, "application/json", "{\"error\":{\"message\":\"bad key " + OLD_KEY + "\"}}"));
    }

    /** A gateway that served deployment {@code rotating} (group {@code r}, added through the API with the old key) two failed calls. */
    private static TestGateway failedTwice(ScriptedUpstream other, ScriptedUpstream rotating) {
        TestGateway gateway = TestGateway.start("""
                model_list:
                  - {model_name: other, litellm_params: {model: openai/o, api_base: %s}, model_info: {id: o}}
                router_settings: {num_retries: 0}
                general_settings: {master_key: %s}
                """.formatted(other.baseUrl(), MASTER));
        assertThat(admin(gateway, "/model/new", added(rotating)).statusCode()).isEqualTo(200);
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> failed = gateway.post("/v1/chat/completions", Chat.body("r", "hi"), "Authorization", "Bearer " + MASTER);
            assertThat(failed.statusCode()).as(failed.body()).isEqualTo(500);
        }
        return gateway;
    }

    private static String added(ScriptedUpstream rotating) {
        return """
                {"model_name": "r", "litellm_params": {"model": "openai/r", "api_base": "%s", "api_key": "%s"},
                 "model_info": {"id": "rotating"}}""".formatted(rotating.baseUrl(), OLD_KEY);
    }

    @Test
    void aKeyAMessageQuotesAcrossWhereItIsCutIsMaskedWhole() throws Exception {
        try (ScriptedUpstream other = ScriptedUpstream.start("other");
                ScriptedUpstream rotating = failingTwice();
                TestGateway gateway = failedTwice(other, rotating)) {
            JsonNode calls = recentCalls(gateway, MASTER, 2);
            assertThat(calls.toString()).doesNotContain(OLD_KEY_START);
            assertThat(calls.get("calls").get(1).get("attempts").get(0).get("message").asText()).endsWith("****0001 was refused");
            assertThat(deployment(get(gateway, "/model/state", MASTER), "rotating").get("recent_failures").toString())
                    .doesNotContain(OLD_KEY_START).contains("****0001 was refused").contains("bad key ****0001");
        }
    }

    @Test
    void aFailureStaysMaskedWithTheKeyItFailedWithAfterTheKeyIsRotated() throws Exception {
        try (ScriptedUpstream other = ScriptedUpstream.start("other");
                ScriptedUpstream rotating = failingTwice();
                TestGateway gateway = failedTwice(other, rotating)) {
            HttpResponse<String> rotated = admin(gateway, "/model/update",
                    "{\"model_info\": {\"id\": \"rotating\"}, \"litellm_params\": {\"api_key\": \"sk-new-upstream-key-0002\"}}");
            assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);

            JsonNode failures = deployment(get(gateway, "/model/state", MASTER), "rotating").get("recent_failures");
            assertThat(failures).hasSize(2);
            assertThat(failures.get(0).get("message").asText()).isEqualTo("answered 500: bad key ****0001");
            assertThat(failures.toString()).doesNotContain(OLD_KEY_START);
        }
    }

    @Test
    void aVirtualKeySeesTheFailuresOfASharedDeploymentWithoutTheirMessages() throws Exception {
        try (ScriptedUpstream other = ScriptedUpstream.start("other");
                ScriptedUpstream rotating = failingTwice();
                TestGateway gateway = failedTwice(other, rotating)) {
            String reader = key(gateway, "{\"models\": [\"r\"]}");
            JsonNode seen = deployment(get(gateway, "/model/state", reader), "rotating").get("recent_failures");
            assertThat(seen).hasSize(2);
            assertThat(seen.get(0).get("message").isNull()).as("text of another caller's call").isTrue();
            assertThat(seen.get(0).get("failure_class").asText()).isEqualTo("server");
            assertThat(seen.get(0).get("status").asInt()).isEqualTo(500);
            assertThat(seen.get(0).get("at").asText()).isNotEmpty();
            assertThat(deployment(get(gateway, "/model/state", MASTER), "rotating").get("recent_failures").get(0)
                    .get("message").asText()).isEqualTo("answered 500: bad key ****0001");
        }
    }

    @Test
    void whatWasSeenOfARemovedDeploymentIsDroppedWithIt() throws Exception {
        try (ScriptedUpstream other = ScriptedUpstream.start("other");
                ScriptedUpstream rotating = failingTwice();
                TestGateway gateway = failedTwice(other, rotating)) {
            assertThat(admin(gateway, "/model/delete", "{\"id\": \"rotating\"}").statusCode()).isEqualTo(200);
            assertThat(admin(gateway, "/model/new", added(rotating)).statusCode()).isEqualTo(200);

            assertThat(deployment(get(gateway, "/model/state", MASTER), "rotating").get("recent_failures")).isEmpty();
        }
    }

    private static HttpResponse<String> admin(TestGateway gateway, String path, String body) {
        return gateway.post(path, body, "Authorization", "Bearer " + MASTER);
    }

    private static String key(TestGateway gateway, String body) throws IOException {
        HttpResponse<String> created = gateway.post("/key/generate", body, "Authorization", "Bearer " + MASTER);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        return Json.parse(created.body().getBytes()).get("key").asText();
    }
}
