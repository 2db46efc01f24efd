package dev.sluice.admin;

import static dev.sluice.admin.SpendLogsApiTest.ANSWER;
import static dev.sluice.admin.SpendLogsApiTest.MASTER;
import static dev.sluice.admin.SpendLogsApiTest.atNow;
import static dev.sluice.admin.SpendLogsApiTest.json;
import static dev.sluice.admin.SpendLogsApiTest.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A virtual key reads its own {@code /spend/logs}, {@code /global/spend/logs} and {@code /key/info}, on both
 * store engines: its own rows only, whatever it asks, and a 403 when it names another key.
 */
class OwnSpendLogsTest {

    private static String call(TestGateway gateway, TestDatabase store, String key) {
        HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("gpt-a", "hi"), "Authorization", "Bearer " + key);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String callId = answer.headers().firstValue("x-litellm-call-id").orElseThrow();
        SpendRepository log = new SpendRepository(store.database());
        Eventually.until("call " + callId + " is logged", Duration.ofSeconds(10), () -> log.find(callId).isPresent());
        return callId;
    }

    private static JsonNode read(TestGateway gateway, String path, String key) throws Exception {
        HttpResponse<String> answer = gateway.get(path, "Authorization", "Bearer " + key);
        assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(200);
        return json(answer.body());
    }

    @StoreTest
    void aVirtualKeyReadsOnlyItsOwnRows(TestDatabase store) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = atNow(store, upstream)) {
            String mine = json(post(gateway, "/key/generate", "{\"key_alias\": \"mine\"}").body()).get("key").asText();
            String theirs = json(post(gateway, "/key/generate", "{\"key_alias\": \"theirs\"}").body()).get("key").asText();
            String own = call(gateway, store, mine);
            String other = call(gateway, store, theirs);
            String admin = call(gateway, store, MASTER);

            List<String> seen = new ArrayList<>();
            read(gateway, "/spend/logs", mine).forEach(row -> seen.add(row.get("request_id").asText()));
            assertThat(seen).containsExactly(own);
            assertThat(read(gateway, "/spend/logs?request_id=" + other, mine)).as("another key's row by its id").isEmpty();
            assertThat(read(gateway, "/spend/logs?api_key=" + mine, mine)).hasSize(1);
            assertThat(read(gateway, "/spend/logs", MASTER)).hasSize(3);
            assertThat(read(gateway, "/spend/logs?request_id=" + admin, MASTER)).hasSize(1);

            JsonNode perDay = read(gateway, "/global/spend/logs", mine);
            assertThat(perDay).hasSize(1);
            assertThat(perDay.get(0).get("api_key").asText()).isEqualTo(VirtualKey.hash(mine));
            assertThat(perDay.get(0).get("spend").asDouble()).isEqualTo(0.002);

            for (String path : List.of("/spend/logs?api_key=" + VirtualKey.hash(theirs), "/global/spend/logs?api_key=" + theirs)) {
                HttpResponse<String> refused = gateway.get(path, "Authorization", "Bearer " + mine);
                assertThat(refused.statusCode()).as(path).isEqualTo(403);
                JsonNode error = json(refused.body()).get("error");
                assertThat(error.get("type").asText()).isEqualTo("permission_error");
                assertThat(error.get("param").asText()).isEqualTo("api_key");
                assertThat(error.get("message").asText()).contains("may read only its own").contains("mine (sk-...");
            }
            // And its own /key/info, without naming itself.
            assertThat(read(gateway, "/key/info", mine).at("/info/key_alias").asText()).isEqualTo("mine");
            HttpResponse<String> report = gateway.get("/global/spend/report?start_date=2025-03-05&end_date=2025-03-05",
                    "Authorization", "Bearer " + mine);
            assertThat(report.statusCode()).as("the reports stay the master key's").isEqualTo(403);
        }
    }
}
