package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Ports;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Once a group is exhausted, the list its failure class leads to is tried, each group with its own loop. */
class FallbackTest {

    @Test
    void stoppedPrimaryWithNoRetriesFallsBack() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: primary, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:%d/v1"}, model_info: {id: p1}}
                          - {model_name: secondary, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: s1}}
                        router_settings:
                          num_retries: 0
                          fallbacks: [{primary: [secondary]}]
                        """.formatted(Ports.refusing(), backup.baseUrl()), Map.of(), events)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("primary", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("s1");
            assertThat(response.headers().firstValue("x-litellm-model-group")).hasValue("secondary");
            assertThat(SiblingFailoverTest.content(response)).startsWith("[backup]");
            assertThat(events.brief()).containsExactly("attempt p1", "failed p1 transport", "fallback primary->secondary", "attempt s1");
        }
    }

    @Test
    void failedFallbackAnswersThePrimarysErrorAndSaysWhatWasTried() throws IOException {
        try (MockUpstream primary = MockUpstream.start(MockOptions.defaults("primary", MockMode.NOTFOUND));
                MockUpstream secondary = MockUpstream.start(MockOptions.defaults("secondary", MockMode.FAIL));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: a, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a1}}
                          - {model_name: b, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: b1}}
                        router_settings: {num_retries: 0, fallbacks: [{a: [b]}]}
                        """.formatted(primary.baseUrl(), secondary.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("a", "hi"));

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
            assertThat(SiblingFailoverTest.error(response).path("message").asText())
                    .startsWith("[primary]")
                    .endsWith("Sluice: model group 'a' failed with the error above. Fallback to 'b' failed too (server 500).");
        }
    }

    @Test
    void contextWindowRefusalTakesTheContextWindowFallbacks() throws IOException {
        try (MockUpstream small = MockUpstream.start(MockOptions.defaults("small", MockMode.CONTEXT).withMaxChars(5));
                MockUpstream general = MockUpstream.start(MockOptions.defaults("general", MockMode.OK));
                MockUpstream large = MockUpstream.start(MockOptions.defaults("large", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: small, litellm_params: {model: openai/a, api_base: %s}}
                          - {model_name: general, litellm_params: {model: openai/b, api_base: %s}}
                          - {model_name: large, litellm_params: {model: openai/c, api_base: %s}}
                        router_settings:
                          fallbacks: [{small: [general]}]
                          context_window_fallbacks: [{small: [large]}]
                        """.formatted(small.baseUrl(), general.baseUrl(), large.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("small", "a prompt longer than five"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(SiblingFailoverTest.content(response)).startsWith("[large]");
            assertThat(general.requests()).isZero();
        }
    }

    @Test
    void contentPolicyRefusalTakesTheContentPolicyFallbacks() throws IOException {
        try (MockUpstream strict = MockUpstream.start(MockOptions.defaults("strict", MockMode.POLICY));
                MockUpstream lenient = MockUpstream.start(MockOptions.defaults("lenient", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: strict, litellm_params: {model: openai/a, api_base: %s}}
                          - {model_name: lenient, litellm_params: {model: openai/b, api_base: %s}}
                        router_settings:
                          content_policy_fallbacks: [{strict: [lenient]}]
                        """.formatted(strict.baseUrl(), lenient.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("strict", "something forbidden"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(SiblingFailoverTest.content(response)).startsWith("[lenient]");
            assertThat(strict.requests()).isEqualTo(1);
        }
    }

    @Test
    void defaultFallbacksApplyToGroupsWithoutTheirOwn() throws IOException {
        try (MockUpstream down = MockUpstream.start(MockOptions.defaults("down", MockMode.AUTH));
                MockUpstream anywhere = MockUpstream.start(MockOptions.defaults("anywhere", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: a, litellm_params: {model: openai/a, api_base: %s}}
                          - {model_name: any, litellm_params: {model: openai/b, api_base: %s}}
                        router_settings: {default_fallbacks: [any]}
                        """.formatted(down.baseUrl(), anywhere.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("a", "hi"));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
        }
    }

    @Test
    void callerSentFallbacksReplaceTheConfiguredOnesAndDisableFallbacksTurnsThemOff() throws IOException {
        try (MockUpstream down = MockUpstream.start(MockOptions.defaults("down", MockMode.FAIL));
                MockUpstream configured = MockUpstream.start(MockOptions.defaults("configured", MockMode.OK));
                MockUpstream chosen = MockUpstream.start(MockOptions.defaults("chosen", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: a, litellm_params: {model: openai/a, api_base: %s}}
                          - {model_name: b, litellm_params: {model: openai/b, api_base: %s}}
                          - {model_name: c, litellm_params: {model: openai/c, api_base: %s}}
                        router_settings: {num_retries: 0, fallbacks: [{a: [b]}]}
                        """.formatted(down.baseUrl(), configured.baseUrl(), chosen.baseUrl()))) {
            HttpResponse<String> replaced = gateway.post("/v1/chat/completions",
                    "{\"model\":\"a\",\"fallbacks\":[\"c\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            assertThat(SiblingFailoverTest.content(replaced)).startsWith("[chosen]");

            HttpResponse<String> disabled = gateway.post("/v1/chat/completions",
                    "{\"model\":\"a\",\"disable_fallbacks\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            assertThat(disabled.statusCode()).isEqualTo(500);
            assertThat(disabled.headers().firstValue("x-litellm-attempted-fallbacks")).isEmpty();
            assertThat(configured.requests()).isZero();

            HttpResponse<String> unknown = gateway.post("/v1/chat/completions",
                    "{\"model\":\"a\",\"fallbacks\":[\"nope\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(SiblingFailoverTest.error(unknown).path("message").asText()).contains("'nope'");
        }
    }

    @Test
    void maxFallbacksBoundsTheGroupsTriedAndTriedGroupsAreSkipped() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream down = MockUpstream.start(MockOptions.defaults("down", MockMode.FAIL));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: a, litellm_params: {model: openai/a, api_base: %1$s}}
                          - {model_name: b, litellm_params: {model: openai/b, api_base: %1$s}}
                          - {model_name: c, litellm_params: {model: openai/c, api_base: %1$s}}
                          - {model_name: d, litellm_params: {model: openai/d, api_base: %1$s}}
                        router_settings: {num_retries: 0, max_fallbacks: 2, fallbacks: [{a: [a, b, c, d]}]}
                        """.formatted(down.baseUrl()), Map.of(), events)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("a", "hi"));

            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("2");
            assertThat(down.requests()).isEqualTo(3);
            assertThat(events.brief()).contains("skip a already_tried", "fallback a->b", "fallback a->c", "skip d max_fallbacks");
            assertThat(SiblingFailoverTest.error(response).path("message").asText())
                    .contains("Fallback to 'd' was skipped: max_fallbacks was reached.");
        }
    }

    @Test
    void everyFallbackSkippedStillSaysNoFallbackWasAttempted() throws IOException {
        try (MockUpstream down = MockUpstream.start(MockOptions.defaults("down", MockMode.REJECT));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: a, litellm_params: {model: openai/a, api_base: %s}}
                        router_settings: {fallbacks: [{a: [a]}]}
                        """.formatted(down.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("a", "hi"));

            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).isEmpty();
            assertThat(SiblingFailoverTest.error(response).path("message").asText()).endsWith(
                    "Fallback to 'a' was skipped: it was already tried for this request. No fallback was attempted.");
        }
    }
}
