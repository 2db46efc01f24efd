package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.admin.AccountApiServer.Answer;
import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.ModelBudget;
import dev.sluice.store.StoredText;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.StoreTest;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The key API over HTTP, on both store engines: generate, info, update, list, block, delete. */
class KeyApiTest {

    @StoreTest
    void generateAnswersTheKeyOnceAndStoresOnlyItsHash(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            assertThat(api.post("/team/new", "{\"team_id\": \"team-eu\"}").status()).isEqualTo(200);

            Answer generated = api.post("/key/generate", """
                    {"models": ["gpt-4o", "gpt-4o-mini"], "max_budget": 10.5, "budget_duration": "30d",
                     "rpm_limit": 100, "tpm_limit": 100000, "max_parallel_requests": 4,
                     "model_max_budget": {"gpt-4o": {"budget_limit": 2, "time_period": "1d"}},
                     "model_rpm_limit": {"gpt-4o": 10}, "model_tpm_limit": {"gpt-4o": 5000},
                     "aliases": {"gpt-4": "gpt-4o"},
                     "team_id": "team-eu", "user_id": "ada", "key_alias": "support-bot",
                     "metadata": {"app": "support", "owner": {"name": "Ada"}}, "duration": "7d"}""");

            assertThat(generated.status()).as(generated.toString()).isEqualTo(200);
            JsonNode body = generated.body();
            String key = body.get("key").asText();
            String token = VirtualKey.hash(key);
            assertThat(key).matches("sk-[A-Za-z0-9_-]{22}");
            assertThat(body.get("token").asText()).isEqualTo(token);
            assertThat(body.get("key_name").asText()).isEqualTo("sk-..." + key.substring(key.length() - 4));
            assertThat(body.get("key_alias").asText()).isEqualTo("support-bot");
            assertThat(body.get("expires").asText()).isEqualTo("2025-01-08T00:00:00Z");
            assertThat(body.get("budget_duration").asText()).isEqualTo("30d");
            assertThat(body.get("budget_reset_at").asText()).isEqualTo("2025-02-01T00:00:00Z");
            assertThat(body.get("max_budget").decimalValue()).isEqualByComparingTo("10.5");
            assertThat(body.get("spend").asText()).isEqualTo("0");
            assertThat(body.get("models")).hasToString("[\"gpt-4o\",\"gpt-4o-mini\"]");
            assertThat(body.get("rpm_limit").asLong()).isEqualTo(100);
            assertThat(body.get("tpm_limit").asLong()).isEqualTo(100_000);
            assertThat(body.get("max_parallel_requests").asInt()).isEqualTo(4);
            assertThat(body.get("model_max_budget")).hasToString("{\"gpt-4o\":{\"budget_limit\":2,\"time_period\":\"1d\"}}");
            assertThat(body.get("model_rpm_limit")).hasToString("{\"gpt-4o\":10}");
            assertThat(body.get("model_tpm_limit")).hasToString("{\"gpt-4o\":5000}");
            assertThat(body.get("aliases")).hasToString("{\"gpt-4\":\"gpt-4o\"}");
            assertThat(body.get("team_id").asText()).isEqualTo("team-eu");
            assertThat(body.get("user_id").asText()).isEqualTo("ada");
            assertThat(body.get("metadata")).hasToString("{\"app\":\"support\",\"owner\":{\"name\":\"Ada\"}}");
            assertThat(body.get("blocked").asBoolean()).isFalse();
            assertThat(body.get("created_at").asText()).isEqualTo("2025-01-01T00:00:00Z");

            VirtualKey stored = new KeyRepository(database).findByHash(token).orElseThrow();
            assertThat(stored.budget().maxBudget()).contains(new BigDecimal("10.500000000000"));
            assertThat(stored.modelLimits().modelMaxBudget()).isEqualTo(Map.of("gpt-4o", ModelBudget.of(new BigDecimal("2.000000000000"), "1d")));
            assertThat(stored.owner().teamId()).contains("team-eu");
            String table = StoredText.of(database, "sluice_keys");
            assertThat(table).contains(token).doesNotContain(key).doesNotContain(key.substring(3));

            Answer info = api.get("/key/info?key=" + token);
            assertThat(info.status()).isEqualTo(200);
            assertThat(info.text()).doesNotContain(key);
            assertThat(api.changes()).containsExactly("team:team-eu", "key:" + token);
        }
    }

    @StoreTest
    void aKeyGoesThroughItsWholeLifecycle(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            String key = api.post("/key/generate", "{\"key_alias\": \"batch\", \"max_budget\": 5}").body().get("key").asText();
            String token = VirtualKey.hash(key);

            Answer info = api.get("/key/info?key=" + key);
            assertThat(info.status()).isEqualTo(200);
            assertThat(info.body().get("key").asText()).isEqualTo(key);
            assertThat(info.body().get("info").get("token").asText()).isEqualTo(token);
            assertThat(info.body().get("info").get("key_alias").asText()).isEqualTo("batch");
            assertThat(info.body().get("info").has("key")).isFalse();

            Answer updated = api.post("/key/update", "{\"key\": \"" + key + "\", \"max_budget\": 20, \"models\": [\"gpt-4o\"]}");
            assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
            assertThat(updated.body().get("key").asText()).isEqualTo(key);
            assertThat(updated.body().get("max_budget").asText()).isEqualTo("20");
            assertThat(updated.body().get("models")).hasToString("[\"gpt-4o\"]");
            assertThat(updated.body().get("key_alias").asText()).isEqualTo("batch");

            Answer listed = api.get("/key/list");
            assertThat(listed.body().get("keys")).hasToString("[\"" + token + "\"]");

            Answer blocked = api.post("/key/block", "{\"key\": \"" + token + "\"}");
            assertThat(blocked.status()).isEqualTo(200);
            assertThat(blocked.body().get("blocked").asBoolean()).isTrue();
            assertThat(api.get("/key/info?key=" + token).body().at("/info/blocked").asBoolean()).isTrue();
            assertThat(api.post("/key/unblock", "{\"key\": \"" + key + "\"}").body().get("blocked").asBoolean()).isFalse();

            Answer deleted = api.post("/key/delete", "{\"keys\": [\"" + key + "\"]}");
            assertThat(deleted.status()).isEqualTo(200);
            assertThat(deleted.body()).hasToString("{\"deleted_keys\":[\"" + key + "\"]}");
            assertThat(api.get("/key/info?key=" + key).status()).isEqualTo(404);
            assertThat(api.get("/key/info?key=" + key).errorCode()).isEqualTo("key_not_found");
            assertThat(api.changes()).containsExactly("key:" + token, "key:" + token, "key:" + token, "key:" + token,
                    "key:" + token);
        }
    }

    @StoreTest
    void updateChangesOnlyTheFieldsGivenAndNullClearsOne(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            String key = api.post("/key/generate", """
                    {"key_alias": "etl", "max_budget": 10, "budget_duration": "1d", "rpm_limit": 60, "duration": "30d",
                     "user_id": "ada", "metadata": {"a": 1}, "models": ["gpt-4o"]}""").body().get("key").asText();

            JsonNode onlyRpm = api.post("/key/update", "{\"key\": \"" + key + "\", \"rpm_limit\": 120}").body();
            assertThat(onlyRpm.get("rpm_limit").asLong()).isEqualTo(120);
            assertThat(onlyRpm.get("max_budget").asText()).isEqualTo("10");
            assertThat(onlyRpm.get("budget_duration").asText()).isEqualTo("1d");
            assertThat(onlyRpm.get("budget_reset_at").asText()).isEqualTo("2025-01-02T00:00:00Z");
            assertThat(onlyRpm.get("expires").asText()).isEqualTo("2025-01-31T00:00:00Z");
            assertThat(onlyRpm.get("key_alias").asText()).isEqualTo("etl");
            assertThat(onlyRpm.get("metadata")).hasToString("{\"a\":1}");

            JsonNode cleared = api.post("/key/update", """
                    {"key": "%s", "max_budget": null, "budget_duration": null, "duration": null, "key_alias": null,
                     "user_id": null, "metadata": null, "models": null, "rpm_limit": null}""".formatted(key)).body();
            assertThat(cleared.get("max_budget").isNull()).isTrue();
            assertThat(cleared.get("budget_duration").isNull()).isTrue();
            assertThat(cleared.get("budget_reset_at").isNull()).isTrue();
            assertThat(cleared.get("expires").isNull()).isTrue();
            assertThat(cleared.get("key_alias").isNull()).isTrue();
            assertThat(cleared.get("user_id").isNull()).isTrue();
            assertThat(cleared.get("metadata")).hasToString("{}");
            assertThat(cleared.get("models")).hasToString("[]");
            assertThat(cleared.get("rpm_limit").isNull()).isTrue();
            VirtualKey stored = new KeyRepository(database).findByHash(VirtualKey.hash(key)).orElseThrow();
            assertThat(stored.budget().maxBudget()).isEmpty();
            assertThat(stored.lifetime().expiresAt()).isEmpty();
            assertThat(stored.keyAlias()).isEmpty();
        }
    }

    @StoreTest
    void changingTheBudgetDurationStartsANewPeriodFromNow(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            String key = api.post("/key/generate", "{\"budget_duration\": \"1h\"}").body().get("key").asText();
            assertThat(api.get("/key/info?key=" + key).body().at("/info/budget_reset_at").asText())
                    .isEqualTo("2025-01-01T01:00:00Z");

            api.clock().advance(Duration.ofMinutes(30));
            JsonNode sameDuration = api.post("/key/update", "{\"key\": \"" + key + "\", \"budget_duration\": \"1h\"}").body();
            assertThat(sameDuration.get("budget_reset_at").asText()).isEqualTo("2025-01-01T01:30:00Z");

            JsonNode daily = api.post("/key/update", "{\"key\": \"" + key + "\", \"budget_duration\": \"1d\"}").body();
            assertThat(daily.get("budget_reset_at").asText()).isEqualTo("2025-01-02T00:00:00Z");

            JsonNode untouched = api.post("/key/update", "{\"key\": \"" + key + "\", \"max_budget\": 1}").body();
            assertThat(untouched.get("budget_reset_at").asText()).isEqualTo("2025-01-02T00:00:00Z");
        }
    }

    @StoreTest
    void aKeysLifetimeEndsExactlyItsDurationAfterGeneration(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            api.clock().advance(Duration.ofHours(13));

            assertThat(api.post("/key/generate", "{\"duration\": \"30s\"}").body().get("expires").asText())
                    .isEqualTo("2025-01-01T13:00:30Z");
            assertThat(api.post("/key/generate", "{\"duration\": \"1d\"}").body().get("expires").asText())
                    .isEqualTo("2025-01-02T13:00:00Z");
            assertThat(api.post("/key/generate", "{\"duration\": \"2w\"}").body().get("expires").asText())
                    .isEqualTo("2025-01-15T13:00:00Z");
            assertThat(api.post("/key/generate", "{\"duration\": \"1mo\"}").body().get("expires").asText())
                    .isEqualTo("2025-02-01T13:00:00Z");
            assertThat(api.post("/key/generate", "{}").body().get("expires").isNull()).isTrue();
        }
    }

    @StoreTest
    void listPagesThroughKeysOldestFirstAndFilters(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            api.post("/team/new", "{\"team_id\": \"t1\"}");
            List<String> tokens = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                String body = i % 5 == 0 ? "{\"team_id\": \"t1\", \"user_id\": \"ada\"}" : "{}";
                tokens.add(api.post("/key/generate", body).body().get("token").asText());
                api.clock().advance(Duration.ofSeconds(1));
            }

            JsonNode first = api.get("/key/list").body();
            assertThat(first.get("total_count").asLong()).isEqualTo(25);
            assertThat(first.get("current_page").asInt()).isEqualTo(1);
            assertThat(first.get("total_pages").asInt()).isEqualTo(3);
            assertThat(texts(first.get("keys"))).isEqualTo(tokens.subList(0, 10));

            JsonNode last = api.get("/key/list?page=3&size=10").body();
            assertThat(last.get("current_page").asInt()).isEqualTo(3);
            assertThat(texts(last.get("keys"))).isEqualTo(tokens.subList(20, 25));
            assertThat(api.get("/key/list?page=4").body().get("keys")).isEmpty();

            JsonNode all = api.get("/key/list?size=100").body();
            assertThat(all.get("total_pages").asInt()).isEqualTo(1);
            assertThat(texts(all.get("keys"))).isEqualTo(tokens);

            JsonNode team = api.get("/key/list?team_id=t1&return_full_object=true").body();
            assertThat(team.get("total_count").asLong()).isEqualTo(5);
            assertThat(team.get("total_pages").asInt()).isEqualTo(1);
            assertThat(team.get("keys").get(0).get("token").asText()).isEqualTo(tokens.get(0));
            assertThat(team.get("keys").get(0).get("team_id").asText()).isEqualTo("t1");
            assertThat(team.get("keys").get(4).get("token").asText()).isEqualTo(tokens.get(20));
            assertThat(api.get("/key/list?user_id=ada&size=2").body().get("total_pages").asInt()).isEqualTo(3);
            assertThat(api.get("/key/list?user_id=nobody").body().get("total_pages").asInt()).isZero();

            assertThat(api.get("/key/list?size=101").errorParam()).isEqualTo("size");
            assertThat(api.get("/key/list?size=0").errorParam()).isEqualTo("size");
            assertThat(api.get("/key/list?page=0").errorParam()).isEqualTo("page");
            assertThat(api.get("/key/list?page=two").status()).isEqualTo(400);
            assertThat(api.get("/key/list?return_full_object=maybe").errorParam()).isEqualTo("return_full_object");
        }
    }

    @StoreTest
    void deleteTakesKeysTokensAndAliases(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            String first = api.post("/key/generate", "{}").body().get("key").asText();
            String second = api.post("/key/generate", "{}").body().get("token").asText();
            String third = api.post("/key/generate", "{\"key_alias\": \"old\"}").body().get("token").asText();
            String kept = api.post("/key/generate", "{}").body().get("token").asText();

            Answer deleted = api.post("/key/delete", """
                    {"keys": ["%s", "%s", "sk-never-issued"], "key_aliases": ["old", "unknown"]}""".formatted(first, second));

            assertThat(deleted.status()).isEqualTo(200);
            assertThat(texts(deleted.body().get("deleted_keys"))).containsExactly(first, second, "old");
            assertThat(texts(api.get("/key/list").body().get("keys"))).containsExactly(kept);
            assertThat(api.changes()).endsWith("key:" + VirtualKey.hash(first), "key:" + second, "key:" + third);

            Answer again = api.post("/key/delete", "{\"keys\": [\"" + first + "\"]}");
            assertThat(again.status()).isEqualTo(404);
            assertThat(again.errorCode()).isEqualTo("key_not_found");
            assertThat(api.post("/key/delete", "{\"keys\": []}").status()).isEqualTo(400);
            assertThat(api.post("/key/delete", "{}").errorParam()).isEqualTo("keys");
            assertThat(api.post("/key/delete", "{\"keys\": \"" + kept + "\"}").errorParam()).isEqualTo("keys");
        }
    }

    @StoreTest
    void aChosenKeyIsStoredByItsHashAndTakenOnce(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer chosen = api.post("/key/generate", "{\"key\": \"sk-my-own-key-1234\"}");
            assertThat(chosen.status()).isEqualTo(200);
            assertThat(chosen.body().get("key").asText()).isEqualTo("sk-my-own-key-1234");
            assertThat(chosen.body().get("token").asText()).isEqualTo(VirtualKey.hash("sk-my-own-key-1234"));
            assertThat(chosen.body().get("key_name").asText()).isEqualTo("sk-...1234");
            assertThat(StoredText.of(database, "sluice_keys")).doesNotContain("sk-my-own-key-1234");

            Answer again = api.post("/key/generate", "{\"key\": \"sk-my-own-key-1234\"}");
            assertThat(again.status()).isEqualTo(409);
            assertThat(again.errorCode()).isEqualTo("duplicate_key");

            for (String bad : List.of("\"my-own-key\"", "\"sk-\"", "\"sk-has space\"", "42")) {
                Answer refused = api.post("/key/generate", "{\"key\": " + bad + "}");
                assertThat(refused.status()).as(bad).isEqualTo(400);
                assertThat(refused.errorParam()).as(bad).isEqualTo("key");
                assertThat(refused.errorMessage()).as(bad).doesNotContain("my-own-key").doesNotContain("has space");
            }
            assertThat(new KeyRepository(database).count(dev.sluice.store.KeyFilter.ALL)).isEqualTo(1);
        }
    }

    @StoreTest
    void aKeyAliasIsTakenOnce(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            assertThat(api.post("/key/generate", "{\"key_alias\": \"prod\"}").status()).isEqualTo(200);
            String other = api.post("/key/generate", "{\"key_alias\": \"staging\"}").body().get("key").asText();

            Answer duplicate = api.post("/key/generate", "{\"key_alias\": \"prod\"}");
            assertThat(duplicate.status()).isEqualTo(409);
            assertThat(duplicate.errorCode()).isEqualTo("duplicate_key_alias");
            assertThat(duplicate.errorParam()).isEqualTo("key_alias");
            assertThat(duplicate.errorMessage()).contains("\"prod\"");

            Answer renamed = api.post("/key/update", "{\"key\": \"" + other + "\", \"key_alias\": \"prod\", \"max_budget\": 3}");
            assertThat(renamed.status()).isEqualTo(409);
            assertThat(renamed.errorCode()).isEqualTo("duplicate_key_alias");
            JsonNode unchanged = api.get("/key/info?key=" + other).body().get("info");
            assertThat(unchanged.get("key_alias").asText()).isEqualTo("staging");
            assertThat(unchanged.get("max_budget").isNull()).isTrue();
            assertThat(api.get("/key/list").body().get("total_count").asLong()).isEqualTo(2);
        }
    }

    @StoreTest
    void aKeyMayJoinOnlyATeamThatExists(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer refused = api.post("/key/generate", "{\"team_id\": \"ghost\"}");
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.errorParam()).isEqualTo("team_id");
            assertThat(refused.errorCode()).isEqualTo("team_not_found");
            assertThat(api.get("/key/list").body().get("total_count").asLong()).isZero();

            api.post("/team/new", "{\"team_id\": \"real\"}");
            String key = api.post("/key/generate", "{\"team_id\": \"real\"}").body().get("key").asText();
            assertThat(api.post("/key/update", "{\"key\": \"" + key + "\", \"team_id\": \"ghost\"}").errorCode())
                    .isEqualTo("team_not_found");
            assertThat(api.post("/key/update", "{\"key\": \"" + key + "\", \"team_id\": null}").body().get("team_id").isNull())
                    .isTrue();
        }
    }

    @StoreTest
    void fieldsLitellmHasAndSluiceDoesNotAreIgnoredAndNotStored(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer generated = api.post("/key/generate", """
                    {"permissions": {"pii": false}, "tags": ["x"],
                     "soft_budget": 5, "spend": 3, "max_budget": 1}""");

            assertThat(generated.status()).isEqualTo(200);
            assertThat(generated.body().has("permissions")).isFalse();
            assertThat(generated.body().get("spend").asText()).isEqualTo("0");
            assertThat(StoredText.of(database, "sluice_keys")).doesNotContain("pii");
        }
    }

    @StoreTest
    void aliasesMustMapNamesToNames(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer refused = api.post("/key/generate", "{\"aliases\": {\"gpt-4\": 4}}");

            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.errorParam()).isEqualTo("aliases.gpt-4");
            assertThat(api.post("/key/generate", "{\"aliases\": [\"gpt-4\"]}").errorParam()).isEqualTo("aliases");
        }
    }

    @StoreTest
    void updatingOrBlockingAnUnknownKeyIsNotFound(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            for (String route : List.of("/key/update", "/key/block", "/key/unblock")) {
                Answer answer = api.post(route, "{\"key\": \"sk-never-issued\", \"max_budget\": 1}");
                assertThat(answer.status()).as(route).isEqualTo(404);
                assertThat(answer.errorCode()).as(route).isEqualTo("key_not_found");
                assertThat(api.post(route, "{}").errorCode()).as(route).isEqualTo("missing_required_parameter");
            }
            assertThat(api.get("/key/info?key=sk-never-issued").status()).isEqualTo(404);
            assertThat(api.get("/key/info").errorParam()).isEqualTo("key");
            assertThat(api.changes()).isEmpty();
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }
}
