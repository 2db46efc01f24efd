package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.admin.AccountApiServer.Answer;
import dev.sluice.router.strategy.Strategies;
import dev.sluice.store.Database;
import dev.sluice.store.KeyFilter;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.StoredText;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.StoreTest;
import dev.sluice.wire.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The team API over HTTP, on both store engines, router settings included. */
class TeamApiTest {
    private static final String ROUTER_SETTINGS = """
            {"routing_strategy": "latency-based-routing", "num_retries": 0, "timeout": 2.5,
             "fallbacks": [{"gpt-4o": ["gpt-4o-mini", "claude"]}], "context_window_fallbacks": [],
             "content_policy_fallbacks": [{"gpt-4o": []}], "deployment_weights": {"azure-eu": 3, "openai": 0}}""";

    @StoreTest
    void aTeamGoesThroughItsWholeLifecycle(Database database) throws Exception {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer created = api.post("/team/new", """
                    {"team_id": "team-eu", "team_alias": "EU product", "models": ["gpt-4o"], "max_budget": 500,
                     "budget_duration": "30d", "rpm_limit": 600, "tpm_limit": 1000000, "metadata": {"cost_center": 42},
                     "members_with_roles": [{"role": "admin", "user_id": "ada"}],
                     "router_settings": %s}""".formatted(ROUTER_SETTINGS));
            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            JsonNode team = created.body();
            assertThat(team.get("team_id").asText()).isEqualTo("team-eu");
            assertThat(team.get("team_alias").asText()).isEqualTo("EU product");
            assertThat(team.get("max_budget").asText()).isEqualTo("500");
            assertThat(team.get("budget_reset_at").asText()).isEqualTo("2025-02-01T00:00:00Z");
            assertThat(team.get("spend").asText()).isEqualTo("0");
            assertThat(team.get("router_settings")).isEqualTo(json(ROUTER_SETTINGS));
            assertThat(team.get("members_with_roles")).hasToString(
                    "[{\"user_id\":\"ada\",\"user_email\":null,\"role\":\"admin\"}]");

            String first = api.post("/key/generate", "{\"team_id\": \"team-eu\"}").body().get("key").asText();
            String second = api.post("/key/generate", "{\"team_id\": \"team-eu\"}").body().get("token").asText();
            String elsewhere = api.post("/key/generate", "{}").body().get("token").asText();

            Answer info = api.get("/team/info?team_id=team-eu");
            assertThat(info.status()).isEqualTo(200);
            assertThat(info.body().get("team_id").asText()).isEqualTo("team-eu");
            assertThat(info.body().get("team_info").get("rpm_limit").asLong()).isEqualTo(600);
            assertThat(info.body().get("keys")).hasSize(2);
            assertThat(info.body().get("keys").findValuesAsText("token")).containsExactlyInAnyOrder(
                    VirtualKey.hash(first), second);
            assertThat(info.text()).doesNotContain(first);

            Answer updated = api.post("/team/update", """
                    {"team_id": "team-eu", "max_budget": 100, "router_settings": {"num_retries": 2}}""");
            assertThat(updated.status()).isEqualTo(200);
            assertThat(updated.body().get("team_id").asText()).isEqualTo("team-eu");
            assertThat(updated.body().get("data").get("max_budget").asText()).isEqualTo("100");
            assertThat(updated.body().get("data").get("router_settings")).hasToString("{\"num_retries\":2}");
            assertThat(updated.body().get("data").get("team_alias").asText()).isEqualTo("EU product");
            assertThat(new TeamRepository(database).findById("team-eu").orElseThrow().routerSettings())
                    .hasToString("{\"num_retries\":2}");

            Answer listed = api.get("/team/list");
            assertThat(listed.body().isArray()).isTrue();
            assertThat(listed.body().findValuesAsText("team_id")).containsExactly("team-eu");

            Answer deleted = api.post("/team/delete", "{\"team_ids\": [\"team-eu\"]}");
            assertThat(deleted.status()).isEqualTo(200);
            assertThat(deleted.body().get("deleted_teams")).hasToString("[\"team-eu\"]");
            assertThat(texts(deleted.body().get("deleted_keys")))
                    .containsExactlyInAnyOrder(VirtualKey.hash(first), second);
            assertThat(api.get("/team/info?team_id=team-eu").status()).isEqualTo(404);
            assertThat(new KeyRepository(database).count(KeyFilter.ALL)).isEqualTo(1);
            assertThat(api.get("/key/info?key=" + elsewhere).status()).isEqualTo(200);

            assertThat(api.changes()).startsWith("team:team-eu")
                    .contains("key:" + VirtualKey.hash(first), "key:" + second)
                    .endsWith("team:team-eu")
                    .filteredOn(change -> change.equals("team:team-eu")).hasSize(3);
        }
    }

    @StoreTest
    void aTeamWithoutAnIdGetsAGeneratedOne(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer created = api.post("/team/new", "{\"team_alias\": \"QA\"}");

            assertThat(created.status()).isEqualTo(200);
            String teamId = created.body().get("team_id").asText();
            assertThat(teamId).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
            assertThat(new TeamRepository(database).findById(teamId)).isPresent();
            assertThat(created.body().get("router_settings")).hasToString("{}");
            assertThat(created.body().get("budget_reset_at").isNull()).isTrue();
        }
    }

    @StoreTest
    void aTeamIdIsTakenOnce(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            api.post("/team/new", "{\"team_id\": \"ops\", \"max_budget\": 1}");

            Answer duplicate = api.post("/team/new", "{\"team_id\": \"ops\", \"max_budget\": 2}");

            assertThat(duplicate.status()).isEqualTo(409);
            assertThat(duplicate.errorCode()).isEqualTo("duplicate_team_id");
            assertThat(duplicate.errorParam()).isEqualTo("team_id");
            assertThat(api.get("/team/info?team_id=ops").body().at("/team_info/max_budget").asText()).isEqualTo("1");
        }
    }

    /** A router_settings value and the path its 400 names. */
    private static Map<String, String> badRouterSettings() {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("[]", "router_settings");
        bad.put("{\"routing_strategy\": \"fastest\"}", "router_settings.routing_strategy");
        bad.put("{\"routing_strategy\": 1}", "router_settings.routing_strategy");
        bad.put("{\"num_retries\": -1}", "router_settings.num_retries");
        bad.put("{\"num_retries\": 1.5}", "router_settings.num_retries");
        bad.put("{\"timeout\": 0}", "router_settings.timeout");
        bad.put("{\"timeout\": \"10\"}", "router_settings.timeout");
        bad.put("{\"fallbacks\": {\"gpt-4o\": [\"b\"]}}", "router_settings.fallbacks");
        bad.put("{\"fallbacks\": [{\"a\": [\"b\"], \"c\": [\"d\"]}]}", "router_settings.fallbacks[0]");
        bad.put("{\"fallbacks\": [\"gpt-4o\"]}", "router_settings.fallbacks[0]");
        bad.put("{\"fallbacks\": [{\"gpt-4o\": \"b\"}]}", "router_settings.fallbacks[0].gpt-4o");
        bad.put("{\"context_window_fallbacks\": [{\"gpt-4o\": [1]}]}", "router_settings.context_window_fallbacks[0].gpt-4o[0]");
        bad.put("{\"content_policy_fallbacks\": \"x\"}", "router_settings.content_policy_fallbacks");
        bad.put("{\"deployment_weights\": {\"azure-eu\": -1}}", "router_settings.deployment_weights.azure-eu");
        bad.put("{\"deployment_weights\": {\"azure-eu\": \"1\"}}", "router_settings.deployment_weights.azure-eu");
        bad.put("{\"deployment_weights\": [1]}", "router_settings.deployment_weights");
        bad.put("{\"model_group_weights\": {}}", "router_settings.model_group_weights");
        bad.put("{\"num_retries\": null}", "router_settings.num_retries");
        return bad;
    }

    @StoreTest
    void malformedRouterSettingsAreRefusedByPath(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            api.post("/team/new", "{\"team_id\": \"kept\", \"router_settings\": {\"num_retries\": 1}}");

            badRouterSettings().forEach((settings, path) -> {
                Answer created = api.post("/team/new", "{\"team_id\": \"new\", \"router_settings\": " + settings + "}");
                assertThat(created.status()).as(settings + " -> " + created).isEqualTo(400);
                assertThat(created.errorParam()).as(settings + " -> " + created).isEqualTo(path);

                Answer updated = api.post("/team/update", "{\"team_id\": \"kept\", \"router_settings\": " + settings + "}");
                assertThat(updated.status()).as(settings + " -> " + updated).isEqualTo(400);
                assertThat(updated.errorParam()).as(settings + " -> " + updated).isEqualTo(path);
            });

            assertThat(api.get("/team/list").body().findValuesAsText("team_id")).containsExactly("kept");
            assertThat(api.get("/team/info?team_id=kept").body().at("/team_info/router_settings"))
                    .hasToString("{\"num_retries\":1}");
            assertThat(api.changes()).containsExactly("team:kept");
        }
    }

    @StoreTest
    void everyRoutingStrategyLitellmNamesIsAccepted(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            for (String strategy : Strategies.NAMES) {
                Answer created = api.post("/team/new", "{\"router_settings\": {\"routing_strategy\": \"" + strategy + "\"}}");
                assertThat(created.status()).as(strategy).isEqualTo(200);
            }
        }
    }

    @StoreTest
    void malformedTeamFieldsAreRefusedByName(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Map<String, String> bad = new LinkedHashMap<>();
            bad.put("\"team_id\": \"\"", "team_id");
            bad.put("\"team_alias\": 3", "team_alias");
            bad.put("\"models\": \"gpt-4o\"", "models");
            bad.put("\"max_budget\": -0.01", "max_budget");
            bad.put("\"budget_duration\": \"monthly\"", "budget_duration");
            bad.put("\"rpm_limit\": \"x\"", "rpm_limit");
            bad.put("\"tpm_limit\": -1", "tpm_limit");
            bad.put("\"metadata\": 1", "metadata");

            bad.forEach((field, path) -> {
                Answer answer = api.post("/team/new", "{" + field + "}");
                assertThat(answer.status()).as(field + " -> " + answer).isEqualTo(400);
                assertThat(answer.errorParam()).as(field + " -> " + answer).isEqualTo(path);
            });
            assertThat(api.get("/team/list").body()).isEmpty();
            assertThat(StoredText.of(database, "sluice_teams")).isEmpty();
        }
    }

    @StoreTest
    void updateChangesOnlyTheFieldsGivenAndNullClearsOne(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            api.post("/team/new", """
                    {"team_id": "t", "team_alias": "T", "max_budget": 5, "budget_duration": "1d", "rpm_limit": 10,
                     "router_settings": {"num_retries": 1}, "metadata": {"a": 1}}""");
            api.clock().advance(Duration.ofHours(30));

            JsonNode renamed = api.post("/team/update", "{\"team_id\": \"t\", \"team_alias\": \"Team T\"}").body().get("data");
            assertThat(renamed.get("team_alias").asText()).isEqualTo("Team T");
            assertThat(renamed.get("max_budget").asText()).isEqualTo("5");
            assertThat(renamed.get("budget_reset_at").asText()).isEqualTo("2025-01-02T00:00:00Z");

            JsonNode restarted = api.post("/team/update", "{\"team_id\": \"t\", \"budget_duration\": \"1d\"}").body().get("data");
            assertThat(restarted.get("budget_reset_at").asText()).isEqualTo("2025-01-03T00:00:00Z");

            JsonNode cleared = api.post("/team/update", """
                    {"team_id": "t", "max_budget": null, "budget_duration": null, "rpm_limit": null,
                     "router_settings": null, "metadata": null, "team_alias": null}""").body().get("data");
            assertThat(cleared.get("max_budget").isNull()).isTrue();
            assertThat(cleared.get("budget_duration").isNull()).isTrue();
            assertThat(cleared.get("budget_reset_at").isNull()).isTrue();
            assertThat(cleared.get("rpm_limit").isNull()).isTrue();
            assertThat(cleared.get("router_settings")).hasToString("{}");
            assertThat(cleared.get("metadata")).hasToString("{}");
            assertThat(cleared.get("team_alias").isNull()).isTrue();
        }
    }

    @StoreTest
    void modelAliasesAreKeptShownWhereLitellmShowsThemAndClearedByNull(Database database) throws Exception {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer created = api.post("/team/new", """
                    {"team_id": "t", "model_aliases": {"gpt-4": "gpt-4o", "house-model": "openai/gpt-4.1"}}""");
            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            assertThat(created.body().get("litellm_model_table")).isEqualTo(json("""
                    {"model_aliases": {"gpt-4": "gpt-4o", "house-model": "openai/gpt-4.1"}}"""));
            assertThat(api.post("/team/new", "{\"team_id\": \"plain\"}").body().get("litellm_model_table").isNull()).isTrue();

            JsonNode info = api.get("/team/info?team_id=t").body().get("team_info");
            assertThat(info.at("/litellm_model_table/model_aliases")).isEqualTo(json("""
                    {"gpt-4": "gpt-4o", "house-model": "openai/gpt-4.1"}"""));
            Map<String, JsonNode> listed = new LinkedHashMap<>();
            api.get("/team/list").body().forEach(team -> listed.put(team.get("team_id").asText(), team.get("litellm_model_table")));
            assertThat(listed.get("t").at("/model_aliases/gpt-4").asText()).isEqualTo("gpt-4o");
            assertThat(listed.get("plain").isNull()).isTrue();

            // Other settings leave the aliases; new aliases replace them all, as LiteLLM replaces the map.
            JsonNode renamed = api.post("/team/update", "{\"team_id\": \"t\", \"team_alias\": \"T\"}").body().get("data");
            assertThat(renamed.at("/litellm_model_table/model_aliases")).hasSize(2);
            JsonNode replaced = api.post("/team/update", """
                    {"team_id": "t", "model_aliases": {"fast": "gpt-4o-mini"}}""").body().get("data");
            assertThat(replaced.get("litellm_model_table")).isEqualTo(json("{\"model_aliases\": {\"fast\": \"gpt-4o-mini\"}}"));
            assertThat(new TeamRepository(database).findById("t").orElseThrow().modelAliases())
                    .containsExactly(Map.entry("fast", "gpt-4o-mini"));

            JsonNode cleared = api.post("/team/update", "{\"team_id\": \"t\", \"model_aliases\": null}").body().get("data");
            assertThat(cleared.get("litellm_model_table").isNull()).isTrue();
            assertThat(new TeamRepository(database).findById("t").orElseThrow().modelAliases()).isEmpty();
        }
    }

    @StoreTest
    void modelAliasesMustMapNamesToNamesAndARefusalNamesTheEntry(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer refused = api.post("/team/new", "{\"team_id\": \"t\", \"model_aliases\": {\"gpt-4\": 4}}");
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.errorType()).isEqualTo("invalid_request_error");
            assertThat(refused.errorParam()).isEqualTo("model_aliases.gpt-4");
            assertThat(refused.errorMessage()).isEqualTo("Invalid 'model_aliases.gpt-4': 4 (expected: a string).");

            assertThat(api.post("/team/new", "{\"model_aliases\": [\"gpt-4\"]}").errorParam()).isEqualTo("model_aliases");
            assertThat(api.post("/team/new", "{\"model_aliases\": {\"gpt-4\": \" \"}}").errorParam())
                    .isEqualTo("model_aliases.gpt-4");
            Answer blankName = api.post("/team/new", "{\"model_aliases\": {\" \": \"gpt-4o\"}}");
            assertThat(blankName.status()).isEqualTo(400);
            assertThat(blankName.errorParam()).isEqualTo("model_aliases");
            assertThat(StoredText.of(database, "sluice_teams")).isEmpty();

            api.post("/team/new", "{\"team_id\": \"t\", \"model_aliases\": {\"gpt-4\": \"gpt-4o\"}}");
            Answer badUpdate = api.post("/team/update", "{\"team_id\": \"t\", \"model_aliases\": {\"gpt-4\": null}}");
            assertThat(badUpdate.status()).isEqualTo(400);
            assertThat(badUpdate.errorParam()).isEqualTo("model_aliases.gpt-4");
            assertThat(new TeamRepository(database).findById("t").orElseThrow().modelAliases())
                    .containsExactly(Map.entry("gpt-4", "gpt-4o"));
        }
    }

    @StoreTest
    void unknownTeamsAreNotFoundAndADeletionIsAllOrNothing(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            api.post("/team/new", "{\"team_id\": \"real\"}");
            String key = api.post("/key/generate", "{\"team_id\": \"real\"}").body().get("token").asText();

            Answer mixed = api.post("/team/delete", "{\"team_ids\": [\"real\", \"ghost\"]}");
            assertThat(mixed.status()).isEqualTo(404);
            assertThat(mixed.errorCode()).isEqualTo("team_not_found");
            assertThat(mixed.errorMessage()).contains("\"ghost\"");
            assertThat(api.get("/team/info?team_id=real").status()).isEqualTo(200);
            assertThat(api.get("/key/info?key=" + key).status()).isEqualTo(200);

            assertThat(api.post("/team/update", "{\"team_id\": \"ghost\", \"max_budget\": 1}").status()).isEqualTo(404);
            assertThat(api.post("/team/update", "{\"max_budget\": 1}").errorParam()).isEqualTo("team_id");
            assertThat(api.get("/team/info?team_id=ghost").status()).isEqualTo(404);
            assertThat(api.get("/team/info").errorParam()).isEqualTo("team_id");
            assertThat(api.post("/team/delete", "{\"team_ids\": []}").errorParam()).isEqualTo("team_ids");
            assertThat(api.post("/team/delete", "{}").errorParam()).isEqualTo("team_ids");
            assertThat(api.changes()).containsExactly("team:real", "key:" + key);
        }
    }

    private static JsonNode json(String text) throws Exception {
        return Json.parse(text.getBytes());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }
}
