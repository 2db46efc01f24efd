package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.admin.AccountApiServer.Answer;
import dev.sluice.store.Database;
import dev.sluice.store.KeyFilter;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.StoreTest;
import java.util.ArrayList;
import java.util.List;

/** The user, team member, organization and customer APIs over HTTP, on both store engines, in LiteLLM's shapes. */
class OwnerApiTest {

    @StoreTest
    void aUserGoesThroughItsWholeLifecycleWithItsKeysAndTeams(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            assertThat(api.post("/team/new", "{\"team_id\": \"eu\"}").status()).isEqualTo(200);
            Answer created = api.post("/user/new", """
                    {"user_id": "ada", "user_email": "ada@example.com", "user_role": "internal_user_viewer",
                     "models": ["gpt-4o"], "max_budget": 10, "budget_duration": "30d", "tpm_limit": 1000, "rpm_limit": 10,
                     "max_parallel_requests": 2, "metadata": {"desk": 4}, "teams": ["eu"], "key_alias": "ada-key"}""");
            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            JsonNode user = created.body();
            assertThat(user.get("key").asText()).startsWith("sk-");
            assertThat(user.get("token").asText()).isEqualTo(VirtualKey.hash(user.get("key").asText()));
            assertThat(user.get("key_alias").asText()).isEqualTo("ada-key");
            assertThat(user.get("user_id").asText()).isEqualTo("ada");
            assertThat(user.get("user_email").asText()).isEqualTo("ada@example.com");
            assertThat(user.get("user_role").asText()).isEqualTo("internal_user_viewer");
            assertThat(user.get("models")).hasToString("[\"gpt-4o\"]");
            assertThat(user.get("max_budget").asText()).isEqualTo("10");
            assertThat(user.get("budget_reset_at").asText()).isEqualTo("2025-02-01T00:00:00Z");
            assertThat(user.get("max_parallel_requests").asInt()).isEqualTo(2);
            assertThat(user.get("teams")).hasToString("[\"eu\"]");
            // The key belongs to the user; the user's budget is not copied onto it.
            VirtualKey key = new KeyRepository(database).findByHash(user.get("token").asText()).orElseThrow();
            assertThat(key.owner().userId()).hasValue("ada");
            assertThat(key.budget().maxBudget()).isEmpty();

            api.clock().advance(java.time.Duration.ofSeconds(1));
            Answer withoutKey = api.post("/user/new", "{\"user_email\": \"bob@example.com\", \"auto_create_key\": false}");
            assertThat(withoutKey.status()).isEqualTo(200);
            assertThat(withoutKey.body().get("key").isNull()).isTrue();
            assertThat(withoutKey.body().get("user_id").asText()).hasSize(36);
            assertThat(withoutKey.body().get("user_role").asText()).isEqualTo("internal_user");

            Answer info = api.get("/user/info?user_id=ada");
            assertThat(info.status()).isEqualTo(200);
            assertThat(info.body().get("user_id").asText()).isEqualTo("ada");
            assertThat(info.body().get("user_info").get("spend").asText()).isEqualTo("0");
            assertThat(info.body().get("keys").findValuesAsText("token")).containsExactly(user.get("token").asText());
            assertThat(info.body().get("teams").findValuesAsText("team_id")).containsExactly("eu");
            // The user's own key may read its user; not another user, and a key of no user reads none.
            String ownKey = user.get("key").asText();
            assertThat(api.get("/user/info", ownKey).body().get("user_id").asText()).isEqualTo("ada");
            Answer other = api.get("/user/info?user_id=" + withoutKey.body().get("user_id").asText(), ownKey);
            assertThat(other.status()).isEqualTo(403);
            assertThat(other.errorType()).isEqualTo("permission_error");

            Answer updated = api.post("/user/update", "{\"user_id\": \"ada\", \"max_budget\": 20, \"user_role\": \"proxy_admin\"}");
            assertThat(updated.status()).isEqualTo(200);
            assertThat(updated.body().get("max_budget").asText()).isEqualTo("20");
            assertThat(updated.body().get("user_role").asText()).isEqualTo("proxy_admin");
            assertThat(updated.body().get("user_email").asText()).isEqualTo("ada@example.com");
            Answer badRole = api.post("/user/update", "{\"user_id\": \"ada\", \"user_role\": \"king\"}");
            assertThat(badRole.status()).isEqualTo(400);
            assertThat(badRole.errorParam()).isEqualTo("user_role");

            Answer page = api.get("/user/list?page=1&page_size=1");
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.body().get("users").findValuesAsText("user_id")).containsExactly("ada");
            assertThat(page.body().get("total").asLong()).isEqualTo(2);
            assertThat(page.body().get("page").asInt()).isEqualTo(1);
            assertThat(page.body().get("page_size").asInt()).isEqualTo(1);
            assertThat(page.body().get("total_pages").asLong()).isEqualTo(2);

            Answer unknown = api.post("/user/delete", "{\"user_ids\": [\"ada\", \"nobody\"]}");
            assertThat(unknown.status()).isEqualTo(404);
            assertThat(unknown.errorCode()).isEqualTo("user_not_found");
            Answer deleted = api.post("/user/delete", "{\"user_ids\": [\"ada\"]}");
            assertThat(deleted.status()).isEqualTo(200);
            assertThat(deleted.body().get("deleted_users")).hasToString("[\"ada\"]");
            assertThat(texts(deleted.body().get("deleted_keys"))).containsExactly(user.get("token").asText());
            assertThat(new KeyRepository(database).count(KeyFilter.user("ada"))).isZero();
            assertThat(api.get("/user/info?user_id=ada").status()).isEqualTo(404);
            assertThat(api.post("/user/new", "{\"user_id\": \"ada\"}").status()).isEqualTo(200);
            assertThat(api.post("/user/new", "{\"user_id\": \"ada\"}").errorCode()).isEqualTo("duplicate_user_id");
        }
    }

    @StoreTest
    void aUsersKeyIsCheckedAsKeyGenerateChecksOneAndARefusedKeyLeavesNoUser(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            assertThat(api.post("/key/generate", "{\"key_alias\": \"taken\"}").status()).isEqualTo(200);

            Answer noTeam = api.post("/user/new", "{\"user_id\": \"ada\", \"team_id\": \"nowhere\"}");
            assertThat(noTeam.status()).isEqualTo(400);
            assertThat(noTeam.errorCode()).isEqualTo("team_not_found");
            assertThat(noTeam.errorParam()).isEqualTo("team_id");
            Answer takenAlias = api.post("/user/new", "{\"user_id\": \"ada\", \"key_alias\": \"taken\"}");
            assertThat(takenAlias.status()).isEqualTo(409);
            assertThat(takenAlias.errorCode()).isEqualTo("duplicate_key_alias");
            assertThat(takenAlias.errorParam()).isEqualTo("key_alias");
            Answer badDuration = api.post("/user/new", "{\"user_id\": \"ada\", \"duration\": \"forever\"}");
            assertThat(badDuration.status()).isEqualTo(400);
            assertThat(badDuration.errorParam()).isEqualTo("duration");
            Answer unknownTeam = api.post("/user/new", "{\"user_id\": \"ada\", \"teams\": [\"nowhere\"]}");
            assertThat(unknownTeam.status()).isEqualTo(400);
            assertThat(unknownTeam.errorCode()).isEqualTo("team_not_found");
            assertThat(unknownTeam.errorParam()).isEqualTo("teams");
            assertThat(api.get("/user/info?user_id=ada").status()).as("no user left behind by a refused key").isEqualTo(404);

            Answer withoutKey = api.post("/user/new", "{\"user_id\": \"ada\", \"key_alias\": \"taken\", \"auto_create_key\": false}");
            assertThat(withoutKey.status()).as("no key, nothing to check").isEqualTo(200);
            assertThat(new KeyRepository(database).count(KeyFilter.user("ada"))).isZero();
        }
    }

    @StoreTest
    void usersMadeAtOnceWithOneKeyAliasLeaveOnlyTheOneWhoseKeyWasStored(Database database) throws Exception {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            int calls = 6;
            Answer[] answers = new Answer[calls];
            Concurrently.run(calls, i -> answers[i] = api.post("/user/new",
                    "{\"user_id\": \"racer-" + i + "\", \"teams\": [], \"key_alias\": \"one-alias\"}"));

            List<Integer> served = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                if (answers[i].status() == 200) {
                    served.add(i);
                } else {
                    assertThat(answers[i].errorCode()).isEqualTo("duplicate_key_alias");
                    assertThat(api.get("/user/info?user_id=racer-" + i).status()).as("racer %d's user, taken back", i).isEqualTo(404);
                }
            }
            assertThat(served).hasSize(1);
        }
    }

    @StoreTest
    void teamMembersAreAddedUpdatedAndDeletedAndTheTeamShowsThem(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer created = api.post("/team/new", """
                    {"team_id": "eu", "members_with_roles": [{"role": "admin", "user_id": "ada"},
                     {"role": "user", "user_email": "bob@example.com"}]}""");
            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            JsonNode withRoles = created.body().get("members_with_roles");
            assertThat(withRoles).hasSize(2);
            assertThat(member(withRoles, "user_id", "ada").get("role").asText()).isEqualTo("admin");
            assertThat(member(withRoles, "user_email", "bob@example.com").get("role").asText()).isEqualTo("user");
            assertThat(member(withRoles, "user_email", "bob@example.com").get("user_id").asText()).hasSize(36);
            api.clock().advance(java.time.Duration.ofSeconds(1));

            Answer added = api.post("/team/member_add", """
                    {"team_id": "eu", "member": [{"role": "user", "user_id": "cy"}], "max_budget_in_team": 5}""");
            assertThat(added.status()).as(added.toString()).isEqualTo(200);
            assertThat(added.body().get("members_with_roles").findValuesAsText("user_id")).contains("ada", "cy");
            assertThat(added.body().get("updated_users").findValuesAsText("user_id")).containsExactly("cy");
            JsonNode membership = member(added.body().get("team_memberships"), "user_id", "cy");
            assertThat(membership.get("team_id").asText()).isEqualTo("eu");
            assertThat(membership.get("litellm_budget_table").get("max_budget").asText()).isEqualTo("5");

            Answer updated = api.post("/team/member_update", """
                    {"team_id": "eu", "user_id": "cy", "role": "admin", "max_budget_in_team": 7.5}""");
            assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
            assertThat(updated.body().get("role").asText()).isEqualTo("admin");
            assertThat(updated.body().get("max_budget_in_team").asText()).isEqualTo("7.5");
            Answer badRole = api.post("/team/member_update", "{\"team_id\": \"eu\", \"user_id\": \"cy\", \"role\": \"owner\"}");
            assertThat(badRole.status()).isEqualTo(400);
            assertThat(badRole.errorParam()).isEqualTo("role");

            Answer info = api.get("/team/info?team_id=eu");
            assertThat(member(info.body().get("team_info").get("members_with_roles"), "user_id", "cy").get("role").asText())
                    .isEqualTo("admin");
            assertThat(info.body().get("team_info").get("members_with_roles")).hasSize(3);
            assertThat(api.get("/user/info?user_id=cy").body().get("teams").findValuesAsText("team_id")).containsExactly("eu");

            Answer removed = api.post("/team/member_delete", "{\"team_id\": \"eu\", \"user_email\": \"bob@example.com\"}");
            assertThat(removed.status()).isEqualTo(200);
            assertThat(removed.body().get("members_with_roles").findValuesAsText("user_id")).containsExactlyInAnyOrder("ada", "cy");
            Answer again = api.post("/team/member_delete", "{\"team_id\": \"eu\", \"user_id\": \"ada\"}");
            assertThat(again.status()).isEqualTo(200);
            Answer notMember = api.post("/team/member_delete", "{\"team_id\": \"eu\", \"user_id\": \"ada\"}");
            assertThat(notMember.status()).isEqualTo(404);
            assertThat(notMember.errorCode()).isEqualTo("team_member_not_found");
            Answer noTeam = api.post("/team/member_add", "{\"team_id\": \"nope\", \"member\": {\"user_id\": \"ada\"}}");
            assertThat(noTeam.status()).isEqualTo(404);
            assertThat(noTeam.errorCode()).isEqualTo("team_not_found");
            Answer noWho = api.post("/team/member_add", "{\"team_id\": \"eu\", \"member\": {\"role\": \"user\"}}");
            assertThat(noWho.status()).isEqualTo(400);
            assertThat(noWho.errorParam()).isEqualTo("member.user_id");
        }
    }

    @StoreTest
    void aKeyReadsItsOwnTeamAndAnUnknownKeyIsNotFound(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            api.post("/team/new", "{\"team_id\": \"eu\"}");
            api.post("/team/new", "{\"team_id\": \"us\"}");
            JsonNode generated = api.post("/key/generate", "{\"team_id\": \"eu\"}").body();
            String key = generated.get("key").asText();
            assertThat(generated.get("token_id").asText()).isEqualTo(generated.get("token").asText());
            assertThat(generated.get("created_at").asText()).isEqualTo(generated.get("updated_at").asText());

            assertThat(api.get("/team/info?team_id=eu", key).status()).isEqualTo(200);
            assertThat(api.get("/team/info", key).body().get("team_id").asText()).isEqualTo("eu");
            Answer otherTeam = api.get("/team/info?team_id=us", key);
            assertThat(otherTeam.status()).isEqualTo(403);
            assertThat(otherTeam.errorType()).isEqualTo("permission_error");

            Answer unknown = api.get("/key/info?key=sk-not-a-key-at-all", key);
            assertThat(unknown.status()).isEqualTo(404);
            assertThat(unknown.errorCode()).isEqualTo("key_not_found");
            String other = api.post("/key/generate", "{}").body().get("key").asText();
            assertThat(api.get("/key/info?key=" + other, key).status()).isEqualTo(403);

            api.clock().advance(java.time.Duration.ofMinutes(5));
            JsonNode updated = api.post("/key/update", "{\"key\": \"" + key + "\", \"max_budget\": 3}").body();
            assertThat(updated.get("updated_at").asText()).isNotEqualTo(updated.get("created_at").asText());
            assertThat(api.get("/key/info?key=" + key).body().get("info").get("updated_at").asText())
                    .isEqualTo(updated.get("updated_at").asText());
        }
    }

    @StoreTest
    void organizationsAndCustomersGoThroughTheirLifecycles(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer organization = api.post("/organization/new", """
                    {"organization_id": "acme", "organization_alias": "Acme", "models": ["gpt-4o"], "max_budget": 100,
                     "budget_duration": "1d", "tpm_limit": 5000, "rpm_limit": 50, "metadata": {"region": "eu"}}""");
            assertThat(organization.status()).as(organization.toString()).isEqualTo(200);
            assertThat(organization.body().get("organization_alias").asText()).isEqualTo("Acme");
            assertThat(organization.body().get("litellm_budget_table").get("max_budget").asText()).isEqualTo("100");
            assertThat(organization.body().get("litellm_budget_table").get("rpm_limit").asLong()).isEqualTo(50);
            Answer noOrganization = api.post("/team/new", "{\"team_id\": \"eu\", \"organization_id\": \"nope\"}");
            assertThat(noOrganization.status()).isEqualTo(400);
            assertThat(noOrganization.errorCode()).isEqualTo("organization_not_found");
            assertThat(api.post("/team/new", "{\"team_id\": \"eu\", \"organization_id\": \"acme\"}").body()
                    .get("organization_id").asText()).isEqualTo("acme");
            assertThat(api.get("/organization/info?organization_id=acme").body().get("teams").findValuesAsText("team_id"))
                    .containsExactly("eu");
            Answer updated = api.send("PATCH", "/organization/update", "{\"organization_id\": \"acme\", \"max_budget\": 50}");
            assertThat(updated.status()).isEqualTo(200);
            assertThat(updated.body().get("max_budget").asText()).isEqualTo("50");
            assertThat(api.get("/organization/list").body().findValuesAsText("organization_id")).containsExactly("acme");
            Answer stillHasTeams = api.send("DELETE", "/organization/delete", "{\"organization_ids\": [\"acme\"]}");
            assertThat(stillHasTeams.status()).isEqualTo(400);
            assertThat(stillHasTeams.errorCode()).isEqualTo("organization_has_teams");
            api.post("/team/delete", "{\"team_ids\": [\"eu\"]}");
            assertThat(api.send("DELETE", "/organization/delete", "{\"organization_ids\": [\"acme\"]}").status()).isEqualTo(200);
            assertThat(api.get("/organization/info?organization_id=acme").status()).isEqualTo(404);

            Answer customer = api.post("/customer/new", """
                    {"user_id": "buyer-1", "alias": "Buyer", "max_budget": 2.5, "budget_duration": "30d", "rpm_limit": 3,
                     "default_model": "gpt-4o", "allowed_model_region": "eu", "budget_id": "ignored"}""");
            assertThat(customer.status()).as(customer.toString()).isEqualTo(200);
            assertThat(customer.body().get("alias").asText()).isEqualTo("Buyer");
            assertThat(customer.body().get("blocked").asBoolean()).isFalse();
            assertThat(customer.body().get("default_model").asText()).isEqualTo("gpt-4o");
            assertThat(customer.body().get("allowed_model_region").asText()).isEqualTo("eu");
            assertThat(customer.body().get("litellm_budget_table").get("max_budget").asText()).isEqualTo("2.5");
            assertThat(api.post("/customer/new", "{\"user_id\": \"buyer-1\"}").errorCode()).isEqualTo("duplicate_customer_id");
            assertThat(api.post("/customer/new", "{\"alias\": \"x\"}").status()).isEqualTo(400);
            assertThat(api.post("/customer/update", "{\"user_id\": \"buyer-1\", \"blocked\": true}").body()
                    .get("blocked").asBoolean()).isTrue();
            assertThat(api.get("/customer/info?end_user_id=buyer-1").body().get("alias").asText()).isEqualTo("Buyer");
            Answer unblocked = api.post("/customer/unblock", "{\"user_ids\": [\"buyer-1\"]}");
            assertThat(unblocked.body().get("unblocked_users").get(0).get("blocked").asBoolean()).isFalse();
            assertThat(api.get("/customer/list").body().findValuesAsText("user_id")).containsExactly("buyer-1");
            assertThat(api.post("/customer/delete", "{\"user_ids\": [\"buyer-1\"]}").status()).isEqualTo(200);
            assertThat(api.get("/customer/info?end_user_id=buyer-1").status()).isEqualTo(404);
        }
    }

    @StoreTest
    void onlyTheMasterKeyManagesUsersOrganizationsAndCustomers(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            String key = api.post("/key/generate", "{}").body().get("key").asText();
            for (String path : List.of("/user/new", "/team/member_add", "/organization/new", "/customer/new")) {
                Answer refused = api.post(path, "{}", key);
                assertThat(refused.status()).as(path).isEqualTo(403);
                assertThat(refused.errorType()).isEqualTo("permission_error");
            }
            assertThat(api.get("/customer/list", key).status()).isEqualTo(403);
            assertThat(api.get("/user/list", null).status()).isEqualTo(401);
        }
    }

    /** The entry of {@code array} whose {@code field} is {@code value}. */
    private static JsonNode member(JsonNode array, String field, String value) {
        for (JsonNode entry : array) {
            if (value.equals(entry.path(field).asText())) {
                return entry;
            }
        }
        throw new AssertionError("no entry with " + field + "=" + value + " in " + array);
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(value -> texts.add(value.asText()));
        return texts;
    }
}
