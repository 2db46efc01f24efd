package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Benches seen from the outside, in real time with short windows: a benched deployment gets
 * no traffic until its bench ends, then gets traffic again; when all are benched, the one
 * whose bench ends first is still tried. (The bench rules themselves are CooldownsTest's,
 * on a fake clock.)
 */
class BenchRoutingTest {

    @Test
    void rateLimitedDeploymentIsBenchedAtOnceAndReturnsWhenItsBenchEnds() throws Exception {
        RecordingEvents events = new RecordingEvents();
        FakeClock clock = new FakeClock();
        try (ScriptedUpstream limited = ScriptedUpstream.start("limited", new Reply(429, "{\"error\":{\"message\":\"busy\"}}", "1"));
                MockUpstream other = MockUpstream.start(MockOptions.defaults("other", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: limited}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: other}}
                        """.formatted(limited.baseUrl(), other.baseUrl()), Map.of(), events, clock)) {
            HttpResponse<String> first = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.headers().firstValue("x-litellm-model-id")).hasValue("other");
            assertThat(events.brief()).startsWith("attempt limited", "failed limited rate_limited", "bench limited rate_limited",
                    "failover limited", "attempt other");

            for (int i = 0; i < 5; i++) {
                gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            }
            assertThat(limited.calls()).as("benched for its Retry-After of 1 s").isEqualTo(1);

            clock.advance(Duration.ofMillis(999));
            HttpResponse<String> justBefore = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            assertThat(justBefore.headers().firstValue("x-litellm-model-id")).as("a millisecond before its bench ends").hasValue("other");
            clock.advance(Duration.ofMillis(1));
            HttpResponse<String> after = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            assertThat(after.headers().firstValue("x-litellm-model-id")).hasValue("limited");
            assertThat(events.brief()).contains("unbench limited");
        }
    }

    @Test
    void serverErrorsBenchOnlyPastTheAllowance() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: failing}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: backup}}
                        router_settings: {allowed_fails: 2, cooldown_time: 30}
                        """.formatted(failing.baseUrl(), backup.baseUrl()), Map.of(), events)) {
            for (int i = 0; i < 5; i++) {
                assertThat(gateway.post("/v1/chat/completions", Chat.body("g", "hi")).statusCode()).isEqualTo(200);
            }
            assertThat(failing.requests()).as("two allowed, the third benches").isEqualTo(3);
            assertThat(events.brief().stream().filter(l -> l.startsWith("bench"))).containsExactly("bench failing server");
        }
    }

    @Test
    void whenEveryDeploymentIsBenchedTheOneWhoseBenchEndsFirstIsTried() throws IOException {
        try (ScriptedUpstream a = ScriptedUpstream.start("a", new Reply(429, "{\"error\":{\"message\":\"busy\"}}", "20"));
                ScriptedUpstream b = ScriptedUpstream.start("b", new Reply(429, "{\"error\":{\"message\":\"busy\"}}", "10"));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: b}}
                        router_settings: {num_retries: 1}
                        """.formatted(a.baseUrl(), b.baseUrl()))) {
            HttpResponse<String> first = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            assertThat(first.statusCode()).isEqualTo(429);
            assertThat(List.of(a.calls(), b.calls())).containsExactly(1, 1);

            HttpResponse<String> second = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            assertThat(second.statusCode()).isEqualTo(200);
            assertThat(second.headers().firstValue("x-litellm-model-id")).as("b's bench (10 s) ends before a's (20 s)").hasValue("b");
        }
    }

    @Test
    void singleDeploymentGroupIsNeverBenched() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (ScriptedUpstream only = ScriptedUpstream.start("only", Reply.status(500), Reply.status(500), Reply.status(500),
                Reply.status(500), Reply.status(500), Reply.status(500));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: only}}
                        router_settings: {num_retries: 0, allowed_fails: 0}
                        """.formatted(only.baseUrl()), Map.of(), events)) {
            for (int i = 0; i < 6; i++) {
                gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            }
            assertThat(gateway.post("/v1/chat/completions", Chat.body("g", "hi")).statusCode()).isEqualTo(200);
            assertThat(only.calls()).isEqualTo(7);
            assertThat(events.brief()).noneMatch(l -> l.startsWith("bench"));
        }
    }
}
