package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.AccountApiServer.Answer;
import dev.sluice.store.Database;
import dev.sluice.testing.StoreTest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every malformed key field is a 400 naming it by its path; nothing is stored and nobody is
 * told of a change.
 */
class KeyApiValidationTest {

    /** A body field (as JSON) and the path its 400 names. */
    private static Map<String, String> badFields() {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("\"models\": \"gpt-4o\"", "models");
        bad.put("\"models\": [\"gpt-4o\", 7]", "models[1]");
        bad.put("\"models\": [\"\"]", "models[0]");
        bad.put("\"max_budget\": -1", "max_budget");
        bad.put("\"max_budget\": \"10\"", "max_budget");
        bad.put("\"max_budget\": 1e18", "max_budget");
        bad.put("\"max_budget\": 1e400", "max_budget");
        bad.put("\"budget_duration\": \"30x\"", "budget_duration");
        bad.put("\"budget_duration\": 30", "budget_duration");
        bad.put("\"budget_duration\": \"0d\"", "budget_duration");
        bad.put("\"budget_duration\": \"999999999d\"", "budget_duration");
        bad.put("\"rpm_limit\": 1.5", "rpm_limit");
        bad.put("\"rpm_limit\": -1", "rpm_limit");
        bad.put("\"rpm_limit\": \"100\"", "rpm_limit");
        bad.put("\"tpm_limit\": -5", "tpm_limit");
        bad.put("\"tpm_limit\": 99999999999999999999", "tpm_limit");
        bad.put("\"max_parallel_requests\": 3000000000", "max_parallel_requests");
        bad.put("\"max_parallel_requests\": true", "max_parallel_requests");
        bad.put("\"model_max_budget\": {\"gpt-4o\": 5}", "model_max_budget.gpt-4o");
        bad.put("\"model_max_budget\": {\"gpt-4o\": {\"budget_limit\": -1}}", "model_max_budget.gpt-4o.budget_limit");
        bad.put("\"model_max_budget\": {\"gpt-4o\": {\"time_period\": \"1d\"}}", "model_max_budget.gpt-4o.budget_limit");
        bad.put("\"model_max_budget\": {\"gpt-4o\": {\"budget_limit\": 1, \"time_period\": \"soon\"}}",
                "model_max_budget.gpt-4o.time_period");
        bad.put("\"model_max_budget\": [1]", "model_max_budget");
        bad.put("\"model_rpm_limit\": {\"gpt-4o\": -1}", "model_rpm_limit.gpt-4o");
        bad.put("\"model_rpm_limit\": []", "model_rpm_limit");
        bad.put("\"model_rpm_limit\": {\"\": 1}", "model_rpm_limit");
        bad.put("\"model_tpm_limit\": {\"gpt-4o\": 1.5}", "model_tpm_limit.gpt-4o");
        bad.put("\"team_id\": 5", "team_id");
        bad.put("\"user_id\": \"\"", "user_id");
        bad.put("\"user_id\": \"a\\u0000b\"", "user_id");
        bad.put("\"key_alias\": \"" + "x".repeat(256) + "\"", "key_alias");
        bad.put("\"metadata\": [1]", "metadata");
        bad.put("\"metadata\": \"app\"", "metadata");
        bad.put("\"duration\": \"forever\"", "duration");
        bad.put("\"duration\": \"99999999w\"", "duration");
        bad.put("\"key\": \"not-sk\"", "key");
        bad.put("\"blocked\": \"yes\"", "blocked");
        return bad;
    }

    @StoreTest
    void eachMalformedFieldIsRefusedByName(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            badFields().forEach((field, path) -> {
                Answer answer = api.post("/key/generate", "{" + field + "}");

                assertThat(answer.status()).as(field + " -> " + answer).isEqualTo(400);
                assertThat(answer.errorParam()).as(field + " -> " + answer).isEqualTo(path);
                assertThat(answer.errorType()).as(field).isEqualTo("invalid_request_error");
                assertThat(answer.errorMessage()).as(field).contains("'" + path + "'");
            });
            assertThat(api.get("/key/list").body().get("total_count").asLong()).isZero();
            assertThat(api.changes()).isEmpty();
        }
    }

    @StoreTest
    void anUpdateWithAMalformedFieldChangesNothing(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            String key = api.post("/key/generate", "{\"max_budget\": 5, \"rpm_limit\": 10}").body().get("key").asText();
            String before = api.get("/key/info?key=" + key).text();

            badFields().forEach((field, path) -> {
                if (path.equals("key")) {
                    return; // in an update, key names the key to change
                }
                Answer answer = api.post("/key/update", "{\"key\": \"" + key + "\", \"rpm_limit\": 99, " + field + "}");
                assertThat(answer.status()).as(field + " -> " + answer).isEqualTo(400);
                assertThat(answer.errorParam()).as(field + " -> " + answer).isEqualTo(path);
            });

            assertThat(api.get("/key/info?key=" + key).text()).isEqualTo(before);
            assertThat(api.changes()).hasSize(1);
        }
    }

    @StoreTest
    void aBodyThatIsNotAJsonObjectIsRefused(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer broken = api.post("/key/generate", "{\"models\": [");
            assertThat(broken.status()).isEqualTo(400);
            assertThat(broken.errorCode()).isEqualTo("invalid_json");

            Answer array = api.post("/key/generate", "[]");
            assertThat(array.status()).isEqualTo(400);
            assertThat(array.errorCode()).isEqualTo("invalid_type");

            Answer tooLarge = api.post("/key/generate",
                    "{\"metadata\": {\"blob\": \"" + "x".repeat((int) AccountApiServer.MAX_REQUEST_BYTES) + "\"}}");
            assertThat(tooLarge.status()).isEqualTo(413);
            assertThat(tooLarge.errorCode()).isEqualTo("request_too_large");
            assertThat(api.get("/key/list").body().get("total_count").asLong()).isZero();
        }
    }

    @StoreTest
    void anEmptyBodyGeneratesAKeyWithNoLimits(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer generated = api.post("/key/generate", "");

            assertThat(generated.status()).isEqualTo(200);
            assertThat(generated.body().get("key").asText()).startsWith("sk-");
            assertThat(generated.body().get("max_budget").isNull()).isTrue();
            assertThat(generated.body().get("models")).isEmpty();
        }
    }
}
