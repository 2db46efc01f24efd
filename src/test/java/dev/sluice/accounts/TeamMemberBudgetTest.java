package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.accounts.spend.PythonFloats;
import dev.sluice.store.MemberBudget;
import dev.sluice.store.TeamMemberRepository;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A member's {@code max_budget_in_team} against a real gateway, real upstream and a real
 * store (embedded H2 and PostgreSQL): the user's calls with its keys of that team count
 * against it and are refused with LiteLLM's wording once they reach it, until the budget is
 * raised; the same
 * user's other keys and the team's other members are not held to it; the member's stored
 * spend is the exact sum of those calls.
 */
class TeamMemberBudgetTest {
    private static final String MASTER = "sk-master-1234";

    private static String config(TestDatabase store, String apiBase) {
        return """
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}}
                router_settings: {num_retries: 0}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(apiBase, MASTER, store.generalSetting());
    }

    private static JsonNode admin(TestGateway gateway, String path, String json) throws IOException {
        HttpResponse<String> answer = gateway.post(path, json, "Authorization", "Bearer " + MASTER);
        assertThat(answer.statusCode()).as(path + " " + answer.body()).isEqualTo(200);
        return Json.parse(answer.body().getBytes());
    }

    private static HttpResponse<String> call(TestGateway gateway, String key) {
        return gateway.post("/v1/chat/completions", Chat.body("gpt-a", "hello there"), "Authorization", "Bearer " + key);
    }

    private static double cost(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Double.parseDouble(response.headers().firstValue("x-litellm-response-cost").orElseThrow());
    }

    @StoreTest
    void aMembersCallsWithItsTeamKeysAreHeldToItsBudgetInTheTeam(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream.baseUrl()))) {
            double perCall = cost(call(gateway, MASTER));
            BigDecimal budget = BigDecimal.valueOf(perCall).multiply(new BigDecimal("1.5"));
            admin(gateway, "/team/new", "{\"team_id\": \"t1\"}");
            admin(gateway, "/team/member_add", """
                    {"team_id": "t1", "member": [{"role": "user", "user_id": "ada"}, {"role": "user", "user_id": "bob"}],
                     "max_budget_in_team": %s}""".formatted(budget.toPlainString()));
            admin(gateway, "/team/member_update", "{\"team_id\": \"t1\", \"user_id\": \"bob\", \"max_budget_in_team\": null}");
            String adaInTeam = admin(gateway, "/key/generate", "{\"team_id\": \"t1\", \"user_id\": \"ada\"}").path("key").asText();
            String adaAlone = admin(gateway, "/key/generate", "{\"user_id\": \"ada\"}").path("key").asText();
            String bobInTeam = admin(gateway, "/key/generate", "{\"team_id\": \"t1\", \"user_id\": \"bob\"}").path("key").asText();

            // Below the budget after one call, at it after two: the third is refused.
            assertThat(cost(call(gateway, adaInTeam))).isEqualTo(perCall);
            assertThat(cost(call(gateway, adaInTeam))).isEqualTo(perCall);
            HttpResponse<String> refused = call(gateway, adaInTeam);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            JsonNode error = Json.parse(refused.body().getBytes()).path("error");
            assertThat(error.path("type").asText()).isEqualTo("budget_exceeded");
            assertThat(error.path("code").asText()).isEqualTo("400");
            assertThat(error.path("message").asText()).isEqualTo("Budget has been exceeded! User=ada in Team=t1 Current cost: "
                    + PythonFloats.repr(perCall + perCall) + ", Max budget: " + PythonFloats.repr(budget.doubleValue()));

            // A budget raised through the API holds at once on this replica.
            admin(gateway, "/team/member_update", "{\"team_id\": \"t1\", \"user_id\": \"ada\", \"max_budget_in_team\": "
                    + budget.multiply(BigDecimal.TWO).toPlainString() + "}");
            assertThat(cost(call(gateway, adaInTeam))).isEqualTo(perCall);

            // The same user outside the team, and a member with no budget in it, are not held.
            assertThat(call(gateway, adaAlone).statusCode()).isEqualTo(200);
            assertThat(call(gateway, bobInTeam).statusCode()).isEqualTo(200);
            assertThat(call(gateway, bobInTeam).statusCode()).isEqualTo(200);
            assertThat(call(gateway, bobInTeam).statusCode()).isEqualTo(200);

            TeamMemberRepository members = new TeamMemberRepository(store.database());
            BigDecimal threeCalls = BigDecimal.valueOf(perCall).multiply(BigDecimal.valueOf(3));
            Eventually.until("the member's spend reaches the store", Duration.ofSeconds(10),
                    () -> members.budget("t1", "ada").map(MemberBudget::spend).orElseThrow().compareTo(threeCalls) == 0);
            assertThat(members.budget("t1", "bob")).isEmpty();
            // Bob's calls may reach the store in a later flush than Ada's: wait for the team's view of both.
            BigDecimal bobsCalls = BigDecimal.valueOf(perCall).multiply(BigDecimal.valueOf(3));
            JsonNode memberships = Eventually.value("both members' spend in /team/info", Duration.ofSeconds(10), () -> {
                HttpResponse<String> info = gateway.get("/team/info?team_id=t1", "Authorization", "Bearer " + MASTER);
                JsonNode shown;
                try {
                    shown = Json.parse(info.body().getBytes()).path("team_info").path("team_memberships");
                } catch (java.io.IOException unreadable) {
                    throw new java.io.UncheckedIOException(unreadable);
                }
                return shown.size() == 2 && new BigDecimal(shown.get(1).path("spend").asText()).compareTo(bobsCalls) == 0
                        ? java.util.Optional.of(shown) : java.util.Optional.empty();
            });
            assertThat(memberships.findValuesAsText("user_id")).containsExactly("ada", "bob");
            assertThat(new BigDecimal(memberships.get(0).path("spend").asText())).isEqualByComparingTo(threeCalls);
        }
    }
}
