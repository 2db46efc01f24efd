package dev.sluice.ops.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.router.RouterEvents;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FailingOnceClock;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code background_health_checks} in real time with a one-second interval: {@code /health}
 * answers the latest round without probing, a new round comes after the interval, and with
 * {@code health_check_bench_unhealthy} a failing deployment gets no traffic until a probe passes.
 */
class BackgroundHealthChecksTest {

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.parse(response.body().getBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void answersTheLatestRoundWithoutProbingAndRefreshesItAfterTheInterval() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/m, api_base: %s}, model_info: {id: only}}
                        general_settings: {background_health_checks: true, health_check_interval: 1}
                        """.formatted(upstream.baseUrl()))) {
            HttpResponse<String> first = gateway.get("/health");
            JsonNode firstBody = json(first);
            assertThat(firstBody.path("healthy_count").asInt()).as(first.body()).isEqualTo(1);
            assertThat(upstream.requests()).as("the first round's probe").isEqualTo(1);

            upstream.setMode(MockMode.FAIL);
            for (int i = 0; i < 3; i++) {
                assertThat(gateway.get("/health").body()).as("answered from the round, not probed again").isEqualTo(first.body());
            }
            assertThat(upstream.requests()).isEqualTo(1);

            JsonNode[] refreshed = new JsonNode[1];
            Eventually.until("a round after the interval sees the deployment fail", Duration.ofSeconds(5), () -> {
                refreshed[0] = json(gateway.get("/health"));
                return refreshed[0].path("unhealthy_count").asInt() == 1;
            });
            assertThat(refreshed[0].at("/unhealthy_endpoints/0/error").asText()).isEqualTo("HTTP 500: [up] internal error");
            Instant firstRound = Instant.parse(firstBody.path("checked_at").asText());
            Instant laterRound = Instant.parse(refreshed[0].path("checked_at").asText());
            assertThat(Duration.between(firstRound, laterRound)).as("the next round waits the interval").isGreaterThanOrEqualTo(
                    Duration.ofSeconds(1));
        }
    }

    @Test
    void aRoundThatRanOutOfMemoryIsFollowedByTheNextAfterTheInterval() {
        FailingOnceClock clock = FailingOnceClock.whenReadBy(Clock.systemUTC(), HealthChecks.class);
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/m, api_base: %s}, model_info: {id: only}}
                        general_settings: {background_health_checks: true, health_check_interval: 1}
                        """.formatted(upstream.baseUrl()), Map.of(), RouterEvents.NONE, clock)) {
            Eventually.until("the first round failed", Duration.ofSeconds(5), clock::failed);

            Eventually.until("a round after the failed one reports the deployment", Duration.ofSeconds(10),
                    () -> json(gateway.get("/health")).path("healthy_count").asInt() == 1);
            assertThat(upstream.requests()).isPositive();
        }
    }

    @Test
    void benchingKeepsTrafficOffAFailingDeploymentUntilItsProbePasses() {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream flaky = MockUpstream.start(MockOptions.defaults("flaky", MockMode.FAIL));
                MockUpstream steady = MockUpstream.start(MockOptions.defaults("steady", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: flaky}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: steady}}
                        general_settings:
                          background_health_checks: true
                          health_check_interval: 1
                          health_check_bench_unhealthy: true
                        """.formatted(flaky.baseUrl(), steady.baseUrl()), Map.of(), events)) {
            JsonNode first = json(gateway.get("/health"));
            assertThat(first.at("/unhealthy_endpoints/0/model_id").asText()).as(first.toString()).isEqualTo("flaky");
            Instant benchedUntil = Instant.parse(first.at("/unhealthy_endpoints/0/benched_until").asText());
            assertThat(benchedUntil).as("until past the next round's verdict: interval + 2 x the 10 s probe timeout")
                    .isAfter(Instant.now().plusSeconds(15));
            assertThat(events.brief()).contains("bench flaky server");

            for (int i = 0; i < 5; i++) {
                HttpResponse<String> call = gateway.post("/v1/chat/completions", Chat.body("g", "traffic"));
                assertThat(call.statusCode()).isEqualTo(200);
                assertThat(call.headers().firstValue("x-litellm-model-id")).hasValue("steady");
            }
            assertThat(traffic(flaky)).as("no call went to the benched deployment, whatever its weight").isZero();
            assertThat(events.brief()).noneMatch(line -> line.startsWith("attempt flaky"));

            flaky.setMode(MockMode.OK);
            events.awaitBrief("unbench flaky", Duration.ofSeconds(5)); // a passing probe lifts the bench
            // The bench is lifted during the round; the round's results are published once all its probes are in.
            Eventually.until("the round that lifted the bench is published", Duration.ofSeconds(5),
                    () -> json(gateway.get("/health")).at("/healthy_endpoints").findValuesAsText("model_id")
                            .equals(List.of("flaky", "steady")));

            List<String> servedBy = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                servedBy.add(gateway.post("/v1/chat/completions", Chat.body("g", "traffic")).headers()
                        .firstValue("x-litellm-model-id").orElseThrow());
            }
            assertThat(servedBy).as("back in rotation long before its 20 s bench would have lapsed").contains("flaky");
            assertThat(traffic(flaky)).isPositive();
        }
    }

    @Test
    void withoutTheSettingAFailingProbeBenchesNothing() {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream flaky = MockUpstream.start(MockOptions.defaults("flaky", MockMode.FAIL));
                MockUpstream steady = MockUpstream.start(MockOptions.defaults("steady", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: flaky}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: steady}}
                        general_settings: {background_health_checks: true, health_check_interval: 1}
                        """.formatted(flaky.baseUrl(), steady.baseUrl()), Map.of(), events)) {
            JsonNode first = json(gateway.get("/health"));

            assertThat(first.path("unhealthy_count").asInt()).isEqualTo(1);
            assertThat(first.at("/unhealthy_endpoints/0").has("benched_until")).isFalse();
            assertThat(events.brief()).noneMatch(line -> line.startsWith("bench"));
        }
    }

    /** Calls that reached the mock other than health probes (which ask "ping"). */
    private static long traffic(MockUpstream upstream) {
        return upstream.receivedBodies().stream()
                .filter(body -> body.at("/messages/0/content").asText().equals("traffic"))
                .count();
    }
}
