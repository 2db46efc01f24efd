package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.router.RouterEvents;
import dev.sluice.store.Engine;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code GET /spend/logs} over HTTP, on both store engines: LiteLLM's row shape, its filters, its summary per day, its errors. */
class SpendLogsApiTest {
    static final String MASTER = "sk-1234";
    /** 10 prompt tokens at 0.0001 and 5 completion tokens at 0.0002: 0.002 a call. */
    static final Reply ANSWER = Reply.body(200, "application/json", """
            {"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":\
            {"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,\
            "total_tokens":15}}""");

    static final Instant NOW = Instant.parse("2025-03-05T12:00:00Z");

    static String config(TestDatabase store, ScriptedUpstream upstream) {
        return """
                model_list:
                  - model_name: gpt-a
                    litellm_params: {model: openai/m, api_base: %s, input_cost_per_token: 0.0001, output_cost_per_token: 0.0002}
                    model_info: {id: dep-a}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting());
    }

    /**
     * A gateway whose clock reads {@link #NOW}, so the log's retention keeps the rows a test
     * writes in early March 2025.
     */
    static TestGateway atNow(TestDatabase store, ScriptedUpstream upstream) {
        return TestGateway.start(config(store, upstream), Map.of(), RouterEvents.NONE, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    static JsonNode json(String text) throws IOException {
        return Json.parse(text.getBytes());
    }

    static JsonNode get(TestGateway gateway, String path) throws IOException {
        HttpResponse<String> answer = gateway.get(path, "Authorization", "Bearer " + MASTER);
        assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(200);
        return json(answer.body());
    }

    static HttpResponse<String> post(TestGateway gateway, String path, String body) {
        return gateway.post(path, body, "Authorization", "Bearer " + MASTER);
    }

    /** The call's id, once its spend row is logged. */
    private static String logged(TestDatabase store, HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String callId = answer.headers().firstValue("x-litellm-call-id").orElseThrow();
        SpendRepository log = new SpendRepository(store.database());
        Eventually.until("call " + callId + " is logged", Duration.ofSeconds(10), () -> log.find(callId).isPresent());
        return callId;
    }

    @StoreTest
    void callsThroughTheGatewayAreListedNewestFirstInLiteLlmsShapeAndFiltered(TestDatabase store) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            assertThat(post(gateway, "/team/new", "{\"team_id\": \"team-eu\", \"team_alias\": \"EU\"}").statusCode()).isEqualTo(200);
            String key = json(post(gateway, "/key/generate", "{\"team_id\": \"team-eu\", \"user_id\": \"ada\"}").body())
                    .get("key").asText();
            String hash = VirtualKey.hash(key);
            String first = logged(store, gateway.post("/v1/chat/completions", Chat.body("gpt-a", "one"),
                    "Authorization", "Bearer " + key, "x-litellm-tags", "batch"));
            String second = logged(store, gateway.post("/v1/chat/completions", Chat.body("gpt-a", "two"),
                    "Authorization", "Bearer " + key));
            String byMaster = logged(store, post(gateway, "/v1/chat/completions", Chat.body("gpt-a", "three")));

            JsonNode all = get(gateway, "/spend/logs");
            assertThat(ids(all)).containsExactly(byMaster, second, first);
            JsonNode row = get(gateway, "/spend/logs?request_id=" + first);
            assertThat(row).hasSize(1);
            JsonNode shown = row.get(0);
            Instant started = Instant.parse(shown.get("startTime").asText());
            assertThat(Instant.parse(shown.get("endTime").asText())).isAfterOrEqualTo(started);
            assertThat(shown.get("metadata").get("usage_object")).isEqualTo(json(
                    "{\"prompt_tokens\": 10, \"completion_tokens\": 5, \"total_tokens\": 15, \"prompt_tokens_details\": {\"cached_tokens\": 0}}"));
            JsonNode rest = ((ObjectNode) shown.deepCopy()).without(List.of("startTime", "endTime", "metadata"));
            assertThat(rest).isEqualTo(json("""
                    {"request_id": "%s", "call_type": "", "api_key": "%s", "spend": 0.002, "total_tokens": 15,
                     "prompt_tokens": 10, "completion_tokens": 5, "completionStartTime": null, "model": "openai/m",
                     "model_id": "dep-a", "model_group": "gpt-a", "custom_llm_provider": "openai", "api_base": "%s",
                     "user": "ada", "cache_hit": "False", "cache_key": "", "request_tags": ["batch"], "team_id": "team-eu",
                     "end_user": "", "requester_ip_address": "", "messages": {}, "response": {}, "session_id": null,
                     "status": "success"}""".formatted(first, hash, upstream.baseUrl())));
            assertThat(shown.get("metadata").get("user_api_key").asText()).isEqualTo(hash);
            assertThat(shown.get("metadata").get("user_api_key_team_id").asText()).isEqualTo("team-eu");
            assertThat(shown.get("metadata").get("status").asText()).isEqualTo("success");

            // The key or its hash, as LiteLLM takes either; a user's rows; the master key's row has no key.
            assertThat(ids(get(gateway, "/spend/logs?api_key=" + key))).containsExactlyInAnyOrder(first, second);
            assertThat(ids(get(gateway, "/spend/logs?api_key=" + hash))).containsExactlyInAnyOrder(first, second);
            assertThat(ids(get(gateway, "/spend/logs?user_id=ada"))).containsExactlyInAnyOrder(first, second);
            assertThat(get(gateway, "/spend/logs?request_id=" + byMaster).get(0).get("api_key").asText()).isEmpty();
            assertThat(get(gateway, "/spend/logs?request_id=no-such-call")).isEmpty();

            // The key's and its team's spend, as /key/info and /team/info show them.
            Eventually.until("the key's spend is stored", Duration.ofSeconds(10), () -> {
                try {
                    return get(gateway, "/key/info?key=" + key).get("info").get("spend").decimalValue()
                            .compareTo(new BigDecimal("0.004")) == 0;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            JsonNode team = get(gateway, "/team/info?team_id=team-eu");
            assertThat(team.get("team_info").get("spend").decimalValue()).isEqualByComparingTo("0.004");
            assertThat(team.get("keys").get(0).get("spend").decimalValue()).isEqualByComparingTo("0.004");
        }
    }

    @Test
    void replicasSharingPostgresqlEachSeeEveryReplicasCalls() throws Exception {
        try (TestDatabase store = TestDatabases.fresh(Engine.POSTGRESQL);
                ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway one = TestGateway.start(config(store, upstream));
                TestGateway two = TestGateway.start(config(store, upstream))) {
            String first = logged(store, post(one, "/v1/chat/completions", Chat.body("gpt-a", "one")));
            String second = logged(store, post(two, "/v1/chat/completions", Chat.body("gpt-a", "two")));

            assertThat(ids(get(one, "/spend/logs"))).containsExactly(second, first);
            String today = LocalDate.now(ZoneOffset.UTC).toString();
            assertThat(get(two, "/global/spend/report?group_by=day&start_date=" + today + "&end_date=" + today))
                    .isEqualTo(json("""
                            [{"group_by_day": "%sT00:00:00+00:00", "total_spend": 0.004, "total_tokens": 30, "api_requests": 2}]"""
                            .formatted(today)));
        }
    }

    private static List<String> ids(JsonNode rows) {
        return rows.findValuesAsText("request_id");
    }

    @StoreTest
    void rowsComeNewestFirstAPageAtATime(TestDatabase store) throws Exception {
        Instant t0 = Instant.parse("2025-03-01T10:00:00Z");
        new SpendLedger(store.database(), Clock.systemUTC()).post(List.of(row("c1", t0), row("c3", t0.plusSeconds(2)), row("c2", t0.plusSeconds(1)),
                row("c0", t0.plusSeconds(2))));
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = atNow(store, upstream)) {
            assertThat(ids(get(gateway, "/spend/logs"))).containsExactly("c0", "c3", "c2", "c1");
            assertThat(ids(get(gateway, "/spend/logs?page_size=3"))).containsExactly("c0", "c3", "c2");
            assertThat(ids(get(gateway, "/spend/logs?page_size=3&page=2"))).containsExactly("c1");
            assertThat(ids(get(gateway, "/spend/logs?page_size=3&page=3"))).isEmpty();
            assertThat(ids(get(gateway, "/spend/logs?start_date=2025-03-01&end_date=2025-03-01&summarize=false&page_size=2")))
                    .containsExactly("c0", "c3");
        }
    }

    static SpendRow row(String callId, Instant startedAt) {
        return SpendRow.builder(callId, "gpt-a", startedAt).keyHash(VirtualKey.hash("sk-a")).userId("ada")
                .promptTokens(10).completionTokens(5).cost(new BigDecimal("0.5")).build();
    }

    @StoreTest
    void bothDatesSummarizeSpendPerUtcDayOnEachSideOfMidnight(TestDatabase store) throws Exception {
        String a = VirtualKey.hash("sk-a");
        String b = VirtualKey.hash("sk-b");
        Instant midnight = Instant.parse("2025-03-02T00:00:00Z");
        new SpendLedger(store.database(), Clock.systemUTC()).post(List.of(
                SpendRow.builder("before", "gpt-a", midnight.minusNanos(1000)).keyHash(a).userId("ada")
                        .cost(new BigDecimal("0.25")).build(),
                SpendRow.builder("at", "gpt-a", midnight).keyHash(b).cost(new BigDecimal("1.5")).build(),
                SpendRow.builder("master", "gpt-b", midnight.plusSeconds(60)).cost(new BigDecimal("0.5")).build()));
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = atNow(store, upstream)) {
            assertThat(get(gateway, "/spend/logs?start_date=2025-03-01&end_date=2025-03-01")).isEqualTo(json("""
                    [{"startTime": "2025-03-01", "spend": 0.25, "%s": 0.25, "users": {"ada": 0.25}, "models": {"gpt-a": 0.25}}]"""
                    .formatted(a)));
            // The deployment of these rows is not served, so a row's model is its group; days after the last call are zeros.
            assertThat(get(gateway, "/spend/logs?start_date=2025-03-02&end_date=2025-03-04")).isEqualTo(json("""
                    [{"startTime": "2025-03-02", "spend": 2.0, "%s": 1.5, "users": {}, "models": {"gpt-a": 1.5, "gpt-b": 0.5}},
                     {"startTime": "2025-03-03", "spend": 0, "users": {}, "models": {}},
                     {"startTime": "2025-03-04", "spend": 0, "users": {}, "models": {}}]""".formatted(b)));
            assertThat(get(gateway, "/spend/logs?start_date=2025-03-02&end_date=2025-03-02&api_key=" + a)).isEmpty();
            assertThat(ids(get(gateway, "/spend/logs?start_date=2025-03-01&end_date=2025-03-02&summarize=false")))
                    .containsExactly("master", "at", "before");
            assertThat(ids(get(gateway, "/spend/logs?start_date=2025-03-02&end_date=2025-03-02&summarize=false")))
                    .containsExactly("master", "at");
            assertThat(get(gateway, "/spend/logs?start_date=2025-02-01&end_date=2025-02-28")).isEmpty();
        }
    }

    @StoreTest
    void badParametersAreRefusedNamingTheParameterAndOnlyTheMasterKeyMayRead(TestDatabase store) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = atNow(store, upstream)) {
            assertRefused(gateway, "/spend/logs?start_date=2025-13-01&end_date=2025-12-31", "start_date", "invalid_value");
            assertRefused(gateway, "/spend/logs?start_date=2025-02-30&end_date=2025-03-01", "start_date", "invalid_value");
            assertRefused(gateway, "/spend/logs?start_date=2025-03-01T00:00:00&end_date=2025-03-01", "start_date", "invalid_value");
            assertRefused(gateway, "/spend/logs?start_date=2025-03-01", "end_date", "missing_required_parameter");
            assertRefused(gateway, "/spend/logs?start_date=2025-03-02&end_date=2025-03-01", "end_date", "invalid_value");
            // A range is at most 366 days: an answer has an entry per day.
            assertThat(gateway.get("/spend/logs?start_date=2024-01-01&end_date=2024-12-31", "Authorization", "Bearer " + MASTER)
                    .statusCode()).isEqualTo(200);
            assertRefused(gateway, "/spend/logs?start_date=2024-01-01&end_date=2025-01-01", "end_date", "invalid_value");
            assertRefused(gateway, "/spend/logs?start_date=2025-03-01&end_date=9999-12-31", "end_date", "invalid_value");
            assertRefused(gateway, "/global/spend/report?start_date=2025-03-01&end_date=9999-12-31", "end_date", "invalid_value");
            assertRefused(gateway, "/spend/logs?summarize=maybe&start_date=2025-03-01&end_date=2025-03-01", "summarize",
                    "invalid_value");
            assertRefused(gateway, "/spend/logs?page_size=1001", "page_size", "invalid_value");
            assertRefused(gateway, "/spend/logs?page_size=1000&page=11", "page", "invalid_value");

            String key = json(post(gateway, "/key/generate", "{}").body()).get("key").asText();
            // A virtual key reads its own rows only: another key it names is refused.
            String other = json(post(gateway, "/key/generate", "{}").body()).get("key").asText();
            HttpResponse<String> byKey = gateway.get("/spend/logs?api_key=" + VirtualKey.hash(other), "Authorization", "Bearer " + key);
            assertThat(byKey.statusCode()).isEqualTo(403);
            assertThat(json(byKey.body()).at("/error/type").asText()).isEqualTo("permission_error");
            assertThat(json(byKey.body()).at("/error/param").asText()).isEqualTo("api_key");
            assertThat(gateway.get("/spend/logs").statusCode()).isEqualTo(401);
        }
    }

    static void assertRefused(TestGateway gateway, String path, String param, String code) throws IOException {
        HttpResponse<String> answer = gateway.get(path, "Authorization", "Bearer " + MASTER);
        assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(400);
        JsonNode error = json(answer.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.get("param").asText()).as(error.toString()).isEqualTo(param);
        assertThat(error.get("code").asText()).as(error.toString()).isEqualTo(code);
        assertThat(error.get("message").asText()).contains(param);
    }
}
