package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.accounts.spend.PythonFloats;
import dev.sluice.store.CustomerRepository;
import dev.sluice.store.OrganizationRepository;
import dev.sluice.store.UserRepository;
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
 * Budgets, models and blocks of users, organizations and customers against a real gateway,
 * real upstreams and a real store (embedded H2 and PostgreSQL), set up through the account API
 * as a LiteLLM deployment would: each level refuses with LiteLLM's wording once its spend,
 * summed over every key and team under it, reaches its budget, and its stored spend is the
 * exact sum of its calls.
 */
class OwnerBudgetsTest {
    private static final String MASTER = "sk-master-1234";
    private static final String PRICES = "input_cost_per_token: 0.000001, output_cost_per_token: 0.000002";

    private static String config(TestDatabase store, String apiBase) {
        return """
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %1$s, %2$s}}
                  - {model_name: gpt-b, litellm_params: {model: openai/b, api_base: %1$s, %2$s}}
                router_settings: {num_retries: 0}
                general_settings:
                  master_key: %3$s
                  %4$s
                """.formatted(apiBase, PRICES, MASTER, store.generalSetting());
    }

    private static HttpResponse<String> admin(TestGateway gateway, String path, String json) {
        HttpResponse<String> answer = gateway.post(path, json, "Authorization", "Bearer " + MASTER);
        assertThat(answer.statusCode()).as(path + " " + answer.body()).isEqualTo(200);
        return answer;
    }

    private static String key(TestGateway gateway, String json) throws IOException {
        return body(admin(gateway, "/key/generate", json)).path("key").asText();
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, String group) {
        return gateway.post("/v1/chat/completions", Chat.body(group, "hello there"), "Authorization", "Bearer " + key);
    }

    private static HttpResponse<String> callFor(TestGateway gateway, String key, String customer) {
        String body = "{\"model\": \"gpt-a\", \"user\": \"" + customer + "\", \"messages\": [{\"role\": \"user\", "
                + "\"content\": \"hello there\"}]}";
        return gateway.post("/v1/chat/completions", body, "Authorization", "Bearer " + key);
    }

    private static JsonNode body(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes());
    }

    private static JsonNode error(HttpResponse<String> response) throws IOException {
        return body(response).path("error");
    }

    private static double cost(HttpResponse<String> response) {
        return Double.parseDouble(response.headers().firstValue("x-litellm-response-cost").orElseThrow());
    }

    private static BigDecimal oneAndAHalf(double perCall) {
        return BigDecimal.valueOf(perCall).multiply(new BigDecimal("1.5"));
    }

    @StoreTest
    void aUsersBudgetHoldsAcrossAllItsKeysAndItsSpendIsTheirSum(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream.baseUrl()))) {
            double perCall = cost(call(gateway, MASTER, "gpt-a"));
            JsonNode created = body(admin(gateway, "/user/new", """
                    {"user_id": "ada", "user_email": "ada@example.com", "max_budget": %s, "models": ["gpt-a"]}"""
                    .formatted(oneAndAHalf(perCall).toPlainString())));
            String first = created.path("key").asText();
            assertThat(first).startsWith("sk-");
            assertThat(created.path("user_id").asText()).isEqualTo("ada");
            String second = key(gateway, "{\"user_id\": \"ada\"}");

            assertThat(call(gateway, first, "gpt-a").statusCode()).isEqualTo(200);
            // The user's model list holds for every key of the user.
            HttpResponse<String> denied = call(gateway, second, "gpt-b");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(error(denied).path("type").asText()).isEqualTo("user_model_access_denied");
            assertThat(call(gateway, second, "gpt-a").statusCode()).isEqualTo(200);

            HttpResponse<String> refused = call(gateway, first, "gpt-a");
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(error(refused).path("type").asText()).isEqualTo("budget_exceeded");
            assertThat(error(refused).path("code").asText()).isEqualTo("400");
            assertThat(error(refused).path("message").asText()).isEqualTo("ExceededBudget: User=ada over budget. Spend="
                    + PythonFloats.repr(perCall + perCall) + ", Budget=" + PythonFloats.repr(oneAndAHalf(perCall).doubleValue()));

            UserRepository users = new UserRepository(store.database());
            BigDecimal twoCalls = BigDecimal.valueOf(perCall).multiply(BigDecimal.TWO);
            Eventually.until("the spend reaches the store", Duration.ofSeconds(10),
                    () -> users.findById("ada").orElseThrow().budget().spend().compareTo(twoCalls) == 0);
        }
    }

    @StoreTest
    void aUserMadeAfterItsKeysHoldsThemToItsModelsAtOnce(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream.baseUrl()))) {
            String early = key(gateway, "{\"user_id\": \"grace\"}");
            assertThat(call(gateway, early, "gpt-b").statusCode()).as("no user stored yet: no user limits").isEqualTo(200);

            admin(gateway, "/user/new", "{\"user_id\": \"grace\", \"models\": [\"gpt-a\"], \"auto_create_key\": false}");
            HttpResponse<String> denied = call(gateway, early, "gpt-b");
            assertThat(denied.statusCode()).as("the key, cached before, is read again with its new user").isEqualTo(403);
            assertThat(error(denied).path("type").asText()).isEqualTo("user_model_access_denied");
        }
    }

    @StoreTest
    void anOrganizationsBudgetHoldsAcrossItsTeams(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream.baseUrl()))) {
            double perCall = cost(call(gateway, MASTER, "gpt-a"));
            admin(gateway, "/organization/new", """
                    {"organization_id": "acme", "organization_alias": "Acme", "models": ["gpt-a"], "max_budget": %s}"""
                    .formatted(oneAndAHalf(perCall).toPlainString()));
            admin(gateway, "/team/new", "{\"team_id\": \"red\", \"organization_id\": \"acme\"}");
            admin(gateway, "/team/new", "{\"team_id\": \"blue\", \"organization_id\": \"acme\"}");
            String red = key(gateway, "{\"team_id\": \"red\"}");
            String blue = key(gateway, "{\"team_id\": \"blue\"}");

            HttpResponse<String> outside = call(gateway, red, "gpt-b");
            assertThat(outside.statusCode()).isEqualTo(403);
            assertThat(error(outside).path("type").asText()).isEqualTo("organization_model_access_denied");
            assertThat(call(gateway, red, "gpt-a").statusCode()).isEqualTo(200);
            assertThat(call(gateway, blue, "gpt-a").statusCode()).isEqualTo(200);
            HttpResponse<String> refused = call(gateway, red, "gpt-a");
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(error(refused).path("message").asText()).isEqualTo("Budget has been exceeded! Organization=acme "
                    + "Current cost: " + PythonFloats.repr(perCall + perCall) + ", Max budget: "
                    + PythonFloats.repr(oneAndAHalf(perCall).doubleValue()));

            OrganizationRepository organizations = new OrganizationRepository(store.database());
            BigDecimal twoCalls = BigDecimal.valueOf(perCall).multiply(BigDecimal.TWO);
            Eventually.until("the spend reaches the store", Duration.ofSeconds(10),
                    () -> organizations.findById("acme").orElseThrow().budget().spend().compareTo(twoCalls) == 0);
        }
    }

    @StoreTest
    void anOrganizationsNewModelsHoldItsTeamsKeysAtOnce(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream.baseUrl()))) {
            admin(gateway, "/organization/new", "{\"organization_id\": \"acme\", \"models\": [\"gpt-a\", \"gpt-b\"]}");
            admin(gateway, "/team/new", "{\"team_id\": \"red\", \"organization_id\": \"acme\"}");
            String red = key(gateway, "{\"team_id\": \"red\"}");
            assertThat(call(gateway, red, "gpt-b").statusCode()).isEqualTo(200);

            HttpResponse<String> updated = gateway.send(java.net.http.HttpRequest.newBuilder(gateway.uri("/organization/update"))
                    .method("PATCH", java.net.http.HttpRequest.BodyPublishers.ofString(
                            "{\"organization_id\": \"acme\", \"models\": [\"gpt-a\"]}"))
                    .header("Authorization", "Bearer " + MASTER).header("Content-Type", "application/json").build());
            assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
            HttpResponse<String> denied = call(gateway, red, "gpt-b");
            assertThat(denied.statusCode()).as("the team's key, cached before, is read again with its organization").isEqualTo(403);
            assertThat(error(denied).path("type").asText()).isEqualTo("organization_model_access_denied");
        }
    }

    @StoreTest
    void aCustomerNamedInUserIsHeldToItsBudgetAndABlockedOneIsRefused(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream.baseUrl()))) {
            double perCall = cost(call(gateway, MASTER, "gpt-a"));
            admin(gateway, "/customer/new", "{\"user_id\": \"buyer-1\", \"max_budget\": %s}"
                    .formatted(oneAndAHalf(perCall).toPlainString()));
            admin(gateway, "/end_user/new", "{\"user_id\": \"buyer-2\", \"blocked\": true}");
            String one = key(gateway, "{}");
            String other = key(gateway, "{}");

            HttpResponse<String> blocked = callFor(gateway, one, "buyer-2");
            assertThat(blocked.statusCode()).isEqualTo(400);
            assertThat(body(blocked)).isEqualTo(Json.parse("""
                    {"error": {"message": "User blocked from making LLM API Calls. User=buyer-2",
                     "type": "invalid_request_error", "param": null, "code": "400"}}""".getBytes()));

            // The customer's budget holds across keys, and for the master key too.
            assertThat(callFor(gateway, one, "buyer-1").statusCode()).isEqualTo(200);
            assertThat(callFor(gateway, other, "buyer-1").statusCode()).isEqualTo(200);
            HttpResponse<String> refused = callFor(gateway, MASTER, "buyer-1");
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(error(refused).path("type").asText()).isEqualTo("budget_exceeded");
            assertThat(error(refused).path("message").asText()).isEqualTo("ExceededBudget: End User=buyer-1 over budget. "
                    + "Spend=" + PythonFloats.repr(perCall + perCall) + ", Budget="
                    + PythonFloats.repr(oneAndAHalf(perCall).doubleValue()));
            // Another customer, or none, is not held to it.
            assertThat(callFor(gateway, one, "buyer-3").statusCode()).isEqualTo(200);
            assertThat(call(gateway, one, "gpt-a").statusCode()).isEqualTo(200);

            CustomerRepository customers = new CustomerRepository(store.database());
            BigDecimal twoCalls = BigDecimal.valueOf(perCall).multiply(BigDecimal.TWO);
            Eventually.until("the spend reaches the store", Duration.ofSeconds(10),
                    () -> customers.findById("buyer-1").orElseThrow().budget().spend().compareTo(twoCalls) == 0);

            admin(gateway, "/customer/unblock", "{\"user_ids\": [\"buyer-2\"]}");
            assertThat(callFor(gateway, one, "buyer-2").statusCode()).isEqualTo(200);
        }
    }

    @StoreTest
    void anEndUserLongerThanACustomerIdIsRefusedBeforeAnyUpstreamIsCalled(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream.baseUrl()))) {
            String key = key(gateway, "{}");

            assertThat(callFor(gateway, key, "u".repeat(255)).statusCode()).isEqualTo(200);
            HttpResponse<String> tooLong = callFor(gateway, key, "u".repeat(256));

            assertThat(tooLong.statusCode()).isEqualTo(400);
            assertThat(body(tooLong)).isEqualTo(Json.parse("""
                    {"error": {"message": "Invalid 'user': 256 characters (expected: at most 255, the longest customer id).",
                     "type": "invalid_request_error", "param": "user", "code": "invalid_value"}}""".getBytes()));
            assertThat(callFor(gateway, MASTER, "u".repeat(256)).statusCode()).isEqualTo(400);
        }
    }
}
