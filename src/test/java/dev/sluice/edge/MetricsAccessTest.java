package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics} answers anyone, as liveness tooling needs, but names the operator's model
 * groups and deployments only to the master key, unless the config makes them public; LiteLLM's
 * {@code require_auth_for_metrics_endpoint: true} makes the route need a key at all.
 */
class MetricsAccessTest {
    private static final String MASTER = "sk-master-metrics-42";
    private static final String GROUP = "internal-project-x";
    private static final String DEPLOYMENT = "deployment-in-eu-7";

    private MockUpstream upstream;

    @BeforeEach
    void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
    }

    @AfterEach
    void stop() {
        upstream.close();
    }

    private TestGateway gateway(String general, String litellm) {
        TestGateway gateway = TestGateway.start("""
                model_list:
                  - {model_name: %s, litellm_params: {model: openai/m, api_base: %s}, model_info: {id: %s}}
                general_settings: {%s}
                litellm_settings: {%s}
                """.formatted(GROUP, upstream.baseUrl(), DEPLOYMENT, general, litellm));
        String[] key = general.contains("master_key") ? new String[] {"Authorization", "Bearer " + MASTER} : new String[0];
        assertThat(gateway.post("/v1/chat/completions", Chat.body(GROUP, "hello"), key).statusCode()).isEqualTo(200);
        return gateway;
    }

    private static void assertNamed(HttpResponse<String> scraped) {
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.body()).contains("model_group=\"" + GROUP + "\"").contains("deployment=\"" + DEPLOYMENT + "\"");
    }

    private static void assertUnnamed(HttpResponse<String> scraped) {
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.body()).as("still answers for liveness tooling, with what names nothing")
                .contains("sluice_requests_total{route=\"chat_completions\",status_code=\"200\"} 1.0")
                .contains("sluice_requests_in_flight")
                .doesNotContain(GROUP).doesNotContain(DEPLOYMENT)
                .doesNotContain("model_group=").doesNotContain("deployment=");
    }

    @Test
    void byDefaultOnlyTheMasterKeySeesGroupsAndDeploymentsNamed() {
        try (TestGateway gateway = gateway("master_key: " + MASTER, "")) {
            assertUnnamed(gateway.get("/metrics"));
            assertUnnamed(gateway.get("/metrics", "Authorization", "Bearer sk-not-the-master-key"));
            assertNamed(gateway.get("/metrics", "Authorization", "Bearer " + MASTER));
        }
    }

    @Test
    void publicMetricsShowsEverySeriesToEveryone() {
        try (TestGateway gateway = gateway("master_key: " + MASTER + ", public_metrics: true", "")) {
            assertNamed(gateway.get("/metrics"));
        }
    }

    @Test
    void liteLlmsRequireAuthFalseWrittenOutIsItsPublicDefault() {
        try (TestGateway gateway = gateway("master_key: " + MASTER, "require_auth_for_metrics_endpoint: false")) {
            assertNamed(gateway.get("/metrics"));
        }
    }

    @Test
    void liteLlmsRequireAuthTrueNeedsAKeyAndStillNamesOnlyToTheMasterKey() {
        try (TestGateway gateway = gateway("master_key: " + MASTER, "require_auth_for_metrics_endpoint: true")) {
            assertThat(gateway.get("/metrics").statusCode()).isEqualTo(401);
            assertThat(gateway.get("/metrics", "Authorization", "Bearer sk-not-the-master-key").statusCode()).isEqualTo(401);
            assertNamed(gateway.get("/metrics", "Authorization", "Bearer " + MASTER));
        }
    }

    @Test
    void aGatewayWithoutKeysShowsEverythingAsEveryRouteDoes() {
        try (TestGateway gateway = gateway("", "")) {
            assertNamed(gateway.get("/metrics"));
        }
    }
}
