package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.router.RouterEvents;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.ModelBudget;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.store.Team;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.CalendarMinutes;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

/**
 * Virtual keys against a real gateway, a real store (embedded H2 and PostgreSQL) and real
 * upstreams: model access, budgets, rate limits, cost and spend rows.
 */
class KeyEnforcementTest {
    private static final String MASTER = "sk-master-1234";
    /** Prices that make every call cost something exact: $1 per million prompt tokens, $2 per million completion tokens. */
    private static final String PRICES = "input_cost_per_token: 0.000001, output_cost_per_token: 0.000002";

    private static String config(TestDatabase store, String models) {
        return """
                model_list:
                %s
                router_settings: {num_retries: 0}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(models, MASTER, store.generalSetting());
    }

    private static void insertKey(TestDatabase store, String raw, UnaryOperator<VirtualKey.Builder> settings) {
        VirtualKey.Builder builder = VirtualKey.builder(VirtualKey.hash(raw), VirtualKey.maskedName(raw), Instant.now());
        new KeyRepository(store.database()).insert(settings.apply(builder).build());
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, String group) {
        return gateway.post("/v1/chat/completions", Chat.body(group, "hello there"), "Authorization", "Bearer " + key);
    }

    private static JsonNode error(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes()).path("error");
    }

    /** The cost of an answer at {@link #PRICES}, from its usage. */
    private static double priced(HttpResponse<String> response) throws IOException {
        JsonNode usage = Json.parse(response.body().getBytes()).path("usage");
        return new BigDecimal("0.000001").multiply(BigDecimal.valueOf(usage.path("prompt_tokens").asLong()))
                .add(new BigDecimal("0.000002").multiply(BigDecimal.valueOf(usage.path("completion_tokens").asLong())))
                .doubleValue();
    }

    @StoreTest
    void aKeyCallsOnlyTheGroupsItMayAndUnknownBlockedOrExpiredKeysAreRefused(TestDatabase store) throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %1$s}}
                          - {model_name: gpt-b, litellm_params: {model: openai/b, api_base: %1$s}}
                        """.formatted(upstream.baseUrl())))) {
            insertKey(store, "sk-only-a-0001", key -> key.models(List.of("gpt-a")));
            insertKey(store, "sk-blocked-0002", key -> key.blocked(true));
            insertKey(store, "sk-expired-0003", key -> key.expiresAt(Instant.now().minusSeconds(1)));

            assertThat(call(gateway, "sk-only-a-0001", "gpt-a").statusCode()).isEqualTo(200);
            HttpResponse<String> denied = call(gateway, "sk-only-a-0001", "gpt-b");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(error(denied).path("message").asText())
                    .isEqualTo("key not allowed to access model. This key can only access models=['gpt-a']. Tried to access gpt-b");
            assertThat(error(denied).path("type").asText()).isEqualTo("key_model_access_denied");

            assertThat(call(gateway, "sk-unknown-0004", "gpt-a").statusCode()).isEqualTo(401);
            assertThat(error(call(gateway, "sk-blocked-0002", "gpt-a")).path("message").asText()).contains("blocked");
            assertThat(error(call(gateway, "sk-expired-0003", "gpt-a")).path("message").asText()).contains("expired");
            assertThat(call(gateway, MASTER, "gpt-b").statusCode()).isEqualTo(200);

            JsonNode models = Json.parse(gateway.get("/v1/models", "Authorization", "Bearer sk-only-a-0001").body().getBytes());
            assertThat(models.path("data").findValuesAsText("id")).containsExactly("gpt-a");

            // A group that does not exist: the error lists only what the key may use, never the other groups.
            HttpResponse<String> unknown = call(gateway, "sk-only-a-0001", "gpt-z");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(error(unknown).path("message").asText())
                    .isEqualTo("Invalid model name passed in model=gpt-z. Model groups you may use: gpt-a.");
            assertThat(error(call(gateway, MASTER, "gpt-z")).path("message").asText())
                    .endsWith("Model groups you may use: gpt-a, gpt-b.");
        }
    }

    @StoreTest
    void aTeamLimitsTheGroupsOfItsKeys(TestDatabase store) throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %1$s}}
                          - {model_name: gpt-b, litellm_params: {model: openai/b, api_base: %1$s}}
                        """.formatted(upstream.baseUrl())))) {
            new TeamRepository(store.database()).insert(Team.builder("team-a", Instant.now()).models(List.of("gpt-a")).build());
            insertKey(store, "sk-team-key-0001", key -> key.teamId("team-a"));

            assertThat(call(gateway, "sk-team-key-0001", "gpt-a").statusCode()).isEqualTo(200);
            HttpResponse<String> denied = call(gateway, "sk-team-key-0001", "gpt-b");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(error(denied).path("type").asText()).isEqualTo("team_model_access_denied");
            assertThat(error(denied).path("message").asText())
                    .isEqualTo("team not allowed to access model. This team can only access models=['gpt-a']. Tried to access gpt-b");
        }
    }

    @StoreTest
    void aTeamsRouterSettingsSendItsTrafficToItsDeployment(TestDatabase store) throws IOException {
        try (MockUpstream shared = MockUpstream.start(MockOptions.defaults("shared", MockMode.OK));
                MockUpstream reserved = MockUpstream.start(MockOptions.defaults("reserved", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, weight: 1}, model_info: {id: shared-1}}
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, weight: 0}, model_info: {id: reserved-1}}
                        """.formatted(shared.baseUrl(), reserved.baseUrl())))) {
            new TeamRepository(store.database()).insert(Team.builder("team-r", Instant.now())
                    .routerSettings((com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                            "{\"deployment_weights\": {\"reserved-1\": 1}, \"num_retries\": 0}".getBytes()))
                    .build());
            insertKey(store, "sk-team-r-0001", key -> key.teamId("team-r"));

            for (int i = 0; i < 10; i++) {
                assertThat(call(gateway, "sk-team-r-0001", "gpt-a").headers().firstValue("x-litellm-model-id")).hasValue("reserved-1");
                assertThat(call(gateway, MASTER, "gpt-a").headers().firstValue("x-litellm-model-id")).hasValue("shared-1");
            }
        }
    }

    @StoreTest
    void everyAnswerCarriesItsCostAndItsSpendRowAndTheNextRequestSeesTheSpend(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, %s}}
                        """.formatted(upstream.baseUrl(), PRICES)))) {
            HttpResponse<String> probe = call(gateway, MASTER, "gpt-a");
            double perCall = priced(probe);
            assertThat(perCall).isPositive();
            assertThat(probe.headers().firstValue("x-litellm-response-cost").map(Double::parseDouble)).hasValue(perCall);

            // A budget that covers one call and a half: the second call is admitted (spend below
            // the budget), and the third is refused because the second's cost is already counted.
            BigDecimal budget = BigDecimal.valueOf(perCall).multiply(new BigDecimal("1.5"));
            insertKey(store, "sk-budgeted-0001", key -> key.maxBudget(budget).keyAlias("support-bot"));
            HttpResponse<String> first = call(gateway, "sk-budgeted-0001", "gpt-a");
            HttpResponse<String> second = call(gateway, "sk-budgeted-0001", "gpt-a");
            HttpResponse<String> third = call(gateway, "sk-budgeted-0001", "gpt-a");
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(second.statusCode()).isEqualTo(200);
            assertThat(third.statusCode()).isEqualTo(400);
            assertThat(error(third).path("type").asText()).isEqualTo("budget_exceeded");
            assertThat(error(third).path("message").asText())
                    .startsWith("Budget has been exceeded! Key=support-bot (sk-...0001) Current cost: ")
                    .contains("Max budget: ");

            String callId = first.headers().firstValue("x-litellm-call-id").orElseThrow();
            SpendRow row = awaitRow(store, callId);
            assertThat(row.accounts().keyHash()).hasValue(VirtualKey.hash("sk-budgeted-0001"));
            assertThat(row.modelGroup()).isEqualTo("gpt-a");
            assertThat(row.cost().doubleValue()).isEqualTo(perCall);
            assertThat(row.status()).isEqualTo(200);
            assertThat(row.tokens().promptTokens()).isPositive();
            assertThat(row.tokens().totalTokens()).isEqualTo(row.tokens().promptTokens() + row.tokens().completionTokens());
        }
    }

    @StoreTest
    void aSpentBudgetComesBackWhenItsDurationComesRound(TestDatabase store) throws Exception {
        FakeClock clock = new FakeClock(Instant.now());
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, %s}}
                        """.formatted(upstream.baseUrl(), PRICES)), Map.of(), RouterEvents.NONE, clock)) {
            Instant resetAt = clock.instant().plusSeconds(2);
            insertKey(store, "sk-periodic-0001", key -> key.maxBudget(new BigDecimal("0.000001"))
                    .budgetDuration("2s").budgetResetAt(resetAt));

            assertThat(call(gateway, "sk-periodic-0001", "gpt-a").statusCode()).isEqualTo(200);
            HttpResponse<String> spent = call(gateway, "sk-periodic-0001", "gpt-a");
            assertThat(spent.statusCode()).isEqualTo(400);
            assertThat(error(spent).path("type").asText()).isEqualTo("budget_exceeded");

            clock.set(resetAt.minusMillis(1));
            assertThat(call(gateway, "sk-periodic-0001", "gpt-a").statusCode()).as("just before the reset").isEqualTo(400);
            clock.set(resetAt.plusMillis(1));
            assertThat(call(gateway, "sk-periodic-0001", "gpt-a").statusCode()).as("just after the reset").isEqualTo(200);
        }
    }

    @StoreTest
    void fiftyParallelRequestsAgainstRpmTenAdmitExactlyTen(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s}}
                        """.formatted(upstream.baseUrl())))) {
            insertKey(store, "sk-rpm-ten-0001", key -> key.rpmLimit(10L));
            // Read the key once, so every parallel request races on the limit, not on the store.
            assertThat(gateway.get("/v1/models", "Authorization", "Bearer sk-rpm-ten-0001").statusCode()).isEqualTo(200);

            awayFromAMinuteBoundary();

            List<HttpResponse<String>> answers = parallel(50, () -> call(gateway, "sk-rpm-ten-0001", "gpt-a"));

            List<HttpResponse<String>> admitted = answers.stream().filter(r -> r.statusCode() == 200).toList();
            List<HttpResponse<String>> refused = answers.stream().filter(r -> r.statusCode() == 429).toList();
            assertThat(admitted).hasSize(10);
            assertThat(refused).hasSize(40);
            HttpResponse<String> one = refused.getFirst();
            assertThat(one.headers().firstValue("Retry-After").map(Long::parseLong)).hasValueSatisfying(s -> assertThat(s).isBetween(1L, 60L));
            assertThat(one.headers().firstValue("x-ratelimit-limit-requests")).hasValue("10");
            assertThat(one.headers().firstValue("x-ratelimit-remaining-requests")).hasValue("0");
            assertThat(error(one).path("message").asText()).startsWith("Rate limit exceeded for api_key: ")
                    .contains("Limit type: requests. Current limit: 10, Remaining: 0.");
            assertThat(admitted.getFirst().headers().firstValue("x-ratelimit-limit-requests")).hasValue("10");
        }
    }

    @StoreTest
    void tokensPerMinuteAndPerGroupAndPerTeamLimitsAnswer429(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %1$s}}
                          - {model_name: gpt-b, litellm_params: {model: openai/b, api_base: %1$s}}
                        """.formatted(upstream.baseUrl())))) {
            insertKey(store, "sk-tpm-0001", key -> key.tpmLimit(1L));
            insertKey(store, "sk-model-rpm-0002", key -> key.modelRpmLimit(Map.of("gpt-a", 1L)));
            new TeamRepository(store.database()).insert(Team.builder("team-rpm", Instant.now()).rpmLimit(1L).build());
            insertKey(store, "sk-team-rpm-0003", key -> key.teamId("team-rpm"));
            insertKey(store, "sk-team-rpm-0004", key -> key.teamId("team-rpm"));
            awayFromAMinuteBoundary();

            // tpm admits while this minute's tokens are under the limit: the first call's tokens use it up.
            assertThat(call(gateway, "sk-tpm-0001", "gpt-a").statusCode()).isEqualTo(200);
            HttpResponse<String> tokens = call(gateway, "sk-tpm-0001", "gpt-a");
            assertThat(tokens.statusCode()).isEqualTo(429);
            assertThat(error(tokens).path("message").asText()).contains("Limit type: tokens. Current limit: 1");
            assertThat(tokens.headers().firstValue("x-ratelimit-limit-tokens")).hasValue("1");

            assertThat(call(gateway, "sk-model-rpm-0002", "gpt-a").statusCode()).isEqualTo(200);
            assertThat(call(gateway, "sk-model-rpm-0002", "gpt-a").statusCode()).isEqualTo(429);
            assertThat(call(gateway, "sk-model-rpm-0002", "gpt-b").statusCode()).isEqualTo(200);

            // Two keys of one team share its limit.
            assertThat(call(gateway, "sk-team-rpm-0003", "gpt-a").statusCode()).isEqualTo(200);
            HttpResponse<String> team = call(gateway, "sk-team-rpm-0004", "gpt-a");
            assertThat(team.statusCode()).isEqualTo(429);
            assertThat(error(team).path("message").asText()).startsWith("Rate limit exceeded for team: team-rpm.");
        }
    }

    @StoreTest
    void maxParallelRequestsRefusesTheCallOverTheLimitWhileOneIsOpen(TestDatabase store) throws Exception {
        try (MockUpstream slow = MockUpstream.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofMillis(700)));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s}}
                        """.formatted(slow.baseUrl())))) {
            insertKey(store, "sk-parallel-0001", key -> key.maxParallelRequests(1));
            assertThat(gateway.get("/v1/models", "Authorization", "Bearer sk-parallel-0001").statusCode()).isEqualTo(200);
            ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
            Future<HttpResponse<String>> open = pool.submit(() -> call(gateway, "sk-parallel-0001", "gpt-a"));
            Eventually.until("the first call is open at the upstream", Duration.ofSeconds(5), () -> slow.requests() == 1);

            HttpResponse<String> second = call(gateway, "sk-parallel-0001", "gpt-a");

            assertThat(second.statusCode()).isEqualTo(429);
            assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(error(second).path("message").asText()).contains("Limit type: max_parallel_requests");
            assertThat(open.get().statusCode()).isEqualTo(200);
            assertThat(call(gateway, "sk-parallel-0001", "gpt-a").statusCode()).isEqualTo(200);
            pool.shutdown();
        }
    }

    @StoreTest
    void fallbackPreChecksSkipWhatTheCallerMayNotUseOrAfford(TestDatabase store) throws Exception {
        try (MockUpstream down = MockUpstream.start(MockOptions.defaults("down", MockMode.FAIL));
                MockUpstream up = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: primary, litellm_params: {model: openai/p, api_base: %1$s, %3$s}}
                          - {model_name: priced, litellm_params: {model: openai/q, api_base: %2$s, %3$s}}
                          - {model_name: free, litellm_params: {model: openai/r, api_base: %2$s, input_cost_per_token: 0, output_cost_per_token: 0}}
                        router_settings:
                          num_retries: 0
                          fallbacks: [{primary: [priced]}, {free: [priced]}]
                        general_settings:
                          master_key: %4$s
                          %5$s
                        """.formatted(down.baseUrl(), up.baseUrl(), PRICES, MASTER, store.generalSetting()))) {
            // Covered: the remaining budget pays for the estimate (256 completion tokens at most).
            insertKey(store, "sk-covered-0001", key -> key.maxBudget(new BigDecimal("1.00")));
            HttpResponse<String> covered = call(gateway, "sk-covered-0001", "primary");
            assertThat(covered.statusCode()).isEqualTo(200);
            assertThat(covered.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
            assertThat(covered.headers().firstValue("x-litellm-model-group")).hasValue("priced");

            // Over a per-model budget of the fallback group: skipped, and the primary's error says so.
            insertKey(store, "sk-model-budget-0002", key -> key.modelMaxBudget(
                    Map.of("priced", new ModelBudget(new BigDecimal("0.0001"), Optional.empty()))));
            HttpResponse<String> overBudget = call(gateway, "sk-model-budget-0002", "primary");
            assertThat(overBudget.statusCode()).isEqualTo(500);
            assertThat(overBudget.headers().firstValue("x-litellm-attempted-fallbacks")).isEmpty();
            assertThat(error(overBudget).path("message").asText())
                    .contains("Fallback to 'priced' was skipped because the caller is over budget for it.");

            // No access to the fallback group: skipped.
            insertKey(store, "sk-no-access-0003", key -> key.models(List.of("primary")));
            HttpResponse<String> noAccess = call(gateway, "sk-no-access-0003", "primary");
            assertThat(noAccess.statusCode()).isEqualTo(500);
            assertThat(noAccess.headers().firstValue("x-litellm-attempted-fallbacks")).isEmpty();
            assertThat(error(noAccess).path("message").asText())
                    .contains("Fallback to 'priced' was skipped because the caller has no access to it.");
        }
    }

    @StoreTest
    void aFreeFallbackTargetIsTriedWhateverTheBudget(TestDatabase store) throws Exception {
        try (MockUpstream down = MockUpstream.start(MockOptions.defaults("down", MockMode.FAIL));
                MockUpstream up = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: primary, litellm_params: {model: openai/p, api_base: %1$s, %3$s}}
                          - {model_name: free, litellm_params: {model: openai/r, api_base: %2$s, input_cost_per_token: 0, output_cost_per_token: 0}}
                        router_settings: {num_retries: 0, fallbacks: [{primary: [free]}]}
                        general_settings:
                          master_key: %4$s
                          %5$s
                        """.formatted(down.baseUrl(), up.baseUrl(), PRICES, MASTER, store.generalSetting()))) {
            insertKey(store, "sk-spent-free-0001", key -> key.modelMaxBudget(
                    Map.of("free", new ModelBudget(new BigDecimal("0.000000000001"), Optional.empty()))));

            HttpResponse<String> answer = call(gateway, "sk-spent-free-0001", "primary");

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().firstValue("x-litellm-model-group")).hasValue("free");
            assertThat(answer.headers().firstValue("x-litellm-response-cost")).hasValue("0.0");
        }
    }

    @StoreTest
    void readinessReportsTheStore(TestDatabase store) throws IOException {
        try (TestGateway gateway = TestGateway.start(config(store, """
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:9/v1"}}
                """))) {
            JsonNode ready = Json.parse(gateway.get("/health/readiness").body().getBytes());
            assertThat(ready.path("db").asText()).isEqualTo("connected");
            assertThat(ready.has("db_location")).as("where the database is, shown to anyone: %s", ready).isFalse();
            JsonNode detailed = Json.parse(gateway.get("/health/readiness", "Authorization", "Bearer " + MASTER).body().getBytes());
            assertThat(detailed.path("db_location").asText()).as("shown to the master key").isNotEmpty();
            JsonNode virtual = Json.parse(gateway.get("/health/readiness", "Authorization", "Bearer sk-not-the-master").body()
                    .getBytes());
            assertThat(virtual.has("db_location")).isFalse();
        }
    }

    static SpendRow awaitRow(TestDatabase store, String callId) {
        SpendRepository spendLog = new SpendRepository(store.database());
        return Eventually.value("a spend row for call " + callId, Duration.ofSeconds(10), () -> spendLog.find(callId));
    }

    private static List<HttpResponse<String>> parallel(int n, Callable<HttpResponse<String>> call) throws Exception {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(call));
            }
            List<HttpResponse<String>> answers = new ArrayList<>();
            for (Future<HttpResponse<String>> future : futures) {
                answers.add(future.get());
            }
            return answers;
        }
    }

    /**
     * Waits, when the minute is nearly over, for the next one to begin: rpm counts per
     * calendar minute, and a burst that straddled two minutes would be admitted twice.
     */
    static void awayFromAMinuteBoundary() {
        CalendarMinutes.awayFromTheEnd(Duration.ofSeconds(15));
    }
}
