package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One total deadline covers every attempt; each attempt has its own. */
class DeadlineTest {

    @Test
    void hangingDeploymentTimesOutPerAttemptAndTheSiblingServes() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream hanging = MockUpstream.start(MockOptions.defaults("hanging", MockMode.HANG));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, timeout: 0.3}, model_info: {id: hanging}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: healthy}}
                        """.formatted(hanging.baseUrl(), healthy.baseUrl()), Map.of(), events)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("healthy");
            assertThat(events.brief()).startsWith("attempt hanging", "failed hanging timeout", "failover hanging", "attempt healthy");
        }
    }

    @Test
    void totalDeadlineCutsTheRetriesShort() throws IOException {
        try (MockUpstream hanging = MockUpstream.start(MockOptions.defaults("hanging", MockMode.HANG));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, timeout: 0.4}, model_info: {id: hanging}}
                        router_settings: {num_retries: 10, timeout: 1}
                        """.formatted(hanging.baseUrl()))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(response.statusCode()).isEqualTo(408);
            assertThat(SiblingFailoverTest.error(response).path("code").asText()).isEqualTo("upstream_timeout");
            // Not before the 1 s deadline; after it, only as late as a loaded machine can make it.
            assertThat(took).isBetween(Duration.ofMillis(900), Duration.ofSeconds(5));
            // Far fewer than the eleven num_retries allows: two or three attempts of 0.4 s fit in
            // the second, one when a stalled timer lets the first run long.
            assertThat(hanging.requests()).isBetween(1, 3);
        }
    }

    @Test
    void callerTimeoutIsCappedByTheMaximum() throws IOException {
        try (MockUpstream hanging = MockUpstream.start(MockOptions.defaults("hanging", MockMode.HANG));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: hanging}}
                        router_settings: {num_retries: 0, max_client_timeout: 0.5}
                        """.formatted(hanging.baseUrl()))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "x-litellm-timeout", "30");
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(response.statusCode()).isEqualTo(408);
            assertThat(took).isLessThan(Duration.ofSeconds(3));
        }
    }

    @Test
    void overheadHeaderIsOnSuccessAndError() throws IOException {
        try (MockUpstream ok = MockUpstream.start(MockOptions.defaults("ok", MockMode.SLOW).withDelay(Duration.ofSeconds(2)));
                MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.REJECT));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: ok, litellm_params: {model: openai/a, api_base: %s}}
                          - {model_name: bad, litellm_params: {model: openai/b, api_base: %s}}
                        """.formatted(ok.baseUrl(), failing.baseUrl()))) {
            HttpResponse<String> served = gateway.post("/v1/chat/completions", Chat.body("ok", "hi"));
            HttpResponse<String> refused = gateway.post("/v1/chat/completions", Chat.body("bad", "hi"));

            long overhead = Long.parseLong(served.headers().firstValue("x-litellm-overhead-duration-ms").orElseThrow());
            assertThat(overhead).as("the upstream's 2 s are not Sluice's").isLessThan(1_000);
            assertThat(refused.headers().firstValue("x-litellm-overhead-duration-ms")).isPresent();
        }
    }

    @Test
    void streamThatNeverCompletesAnEventCannotOutlastTheTotalDeadline() throws IOException {
        try (ScriptedUpstream stalling = ScriptedUpstream.always("stalling", ScriptedUpstream.Reply.halfEvent(true));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                        router_settings: {num_retries: 0, timeout: 1, stream_timeout: 4}
                        """.formatted(stalling.baseUrl()))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(response.statusCode()).isEqualTo(408);
            assertThat(took).isBetween(Duration.ofMillis(900), Duration.ofMillis(2500));
        }
    }

    @Test
    void streamedCallWaitsForItsHeadOnlyAsLongAsStreamTimeout() throws IOException {
        try (MockUpstream hanging = MockUpstream.start(MockOptions.defaults("hanging", MockMode.HANG));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                        router_settings: {num_retries: 0, timeout: 5, stream_timeout: 0.5}
                        """.formatted(hanging.baseUrl()))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(response.statusCode()).isEqualTo(408);
            assertThat(took).isLessThan(Duration.ofMillis(2500));
        }
    }

    @Test
    void waitsBeforeRetriesAreNotCountedAsOverhead() throws IOException {
        try (ScriptedUpstream limited = ScriptedUpstream.start("up",
                new ScriptedUpstream.Reply(429, "{\"error\":{\"message\":\"busy\"}}", "1"));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        """.formatted(limited.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(Long.parseLong(response.headers().firstValue("x-litellm-overhead-duration-ms").orElseThrow())).isLessThan(500);
        }
    }
}
