package dev.sluice.admin;

import static dev.sluice.admin.SpendLogsApiTest.ANSWER;
import static dev.sluice.admin.SpendLogsApiTest.MASTER;
import static dev.sluice.admin.SpendLogsApiTest.NOW;
import static dev.sluice.admin.SpendLogsApiTest.get;
import static dev.sluice.admin.SpendLogsApiTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.router.RouterEvents;
import dev.sluice.store.SpendRepository;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * {@code /global/spend/report?group_by=deployment} after calls through the gateway, on both
 * store engines: each deployment's spend, tokens and calls per day, under the group it served;
 * a call no deployment served is counted under none.
 */
class DeploymentSpendReportTest {

    @StoreTest
    void eachDeploymentIsReportedPerDayUnderItsGroup(TestDatabase store) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                ScriptedUpstream down = ScriptedUpstream.always("down", ScriptedUpstream.Reply.status(500));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - model_name: gpt-a
                            litellm_params: {model: openai/m, api_base: %1$s, input_cost_per_token: 0.0001, output_cost_per_token: 0.0002}
                            model_info: {id: dep-a}
                          - model_name: gpt-b
                            litellm_params: {model: openai/n, api_base: %1$s, input_cost_per_token: 0.0001, output_cost_per_token: 0.0002}
                            model_info: {id: dep-b}
                          - model_name: gpt-c
                            litellm_params: {model: openai/o, api_base: %2$s}
                            model_info: {id: dep-c}
                        router_settings: {num_retries: 0}
                        general_settings:
                          master_key: %3$s
                          %4$s
                        """.formatted(upstream.baseUrl(), down.baseUrl(), MASTER, store.generalSetting()), Map.of(), RouterEvents.NONE,
                        Clock.fixed(NOW, ZoneOffset.UTC))) {
            SpendRepository log = new SpendRepository(store.database());
            for (String group : new String[] {"gpt-a", "gpt-a", "gpt-b", "gpt-c"}) {
                HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body(group, "hi"), "Authorization", "Bearer " + MASTER);
                String callId = answer.headers().firstValue("x-litellm-call-id").orElseThrow();
                Eventually.until("call " + callId + " is logged", Duration.ofSeconds(10), () -> log.find(callId).isPresent());
            }

            // The call that failed upstream was served by no deployment: its row names none, and no deployment counts it.
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-04&end_date=2025-03-05&group_by=deployment"))
                    .isEqualTo(json("""
                            [{"group_by_day": "2025-03-05T00:00:00+00:00", "deployments": [
                              {"model_id": "dep-a", "model_group": "gpt-a", "total_spend": 0.004, "total_tokens": 30, "api_requests": 2},
                              {"model_id": "dep-b", "model_group": "gpt-b", "total_spend": 0.002, "total_tokens": 15, "api_requests": 1}]}]"""));
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-04&group_by=deployment")).isEmpty();
        }
    }
}
