package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A refusal from one deployment goes to a sibling that has not refused yet (seed 000): never
 * to the same deployment twice, and the loop stops when every deployment has refused,
 * answering the last upstream's own status and body.
 */
class SiblingFailoverTest {

    @Test
    void notFoundDeploymentFailsOverToTheHealthySiblingAndIsBenched() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream broken = MockUpstream.start(MockOptions.defaults("broken", MockMode.NOTFOUND));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - model_name: gpt-failover
                            litellm_params: {model: openai/gpt-retired, api_base: %s, weight: 9}
                            model_info: {id: broken-leg}
                          - model_name: gpt-failover
                            litellm_params: {model: openai/gpt-mini, api_base: %s, weight: 1}
                            model_info: {id: healthy-leg}
                        router_settings: {num_retries: 2}
                        """.formatted(broken.baseUrl(), healthy.baseUrl()), Map.of(), events)) {
            HttpResponse<String> first = firstThatReachedTheBrokenLeg(gateway, broken);

            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.headers().firstValue("x-litellm-model-id")).hasValue("healthy-leg");
            assertThat(first.headers().firstValue("x-litellm-attempted-retries")).hasValue("1");
            assertThat(first.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("0");
            assertThat(content(first)).startsWith("[healthy]");
            assertThat(events.brief()).contains("failed broken-leg not_found", "bench broken-leg not_found", "failover broken-leg");

            for (int i = 0; i < 10; i++) {
                HttpResponse<String> later = gateway.post("/v1/chat/completions", Chat.body("gpt-failover", "hi"));
                assertThat(later.statusCode()).isEqualTo(200);
                assertThat(later.headers().firstValue("x-litellm-attempted-retries")).hasValue("0");
            }
            assertThat(broken.requests()).as("the benched deployment gets no traffic").isEqualTo(1);
        }
    }

    @Test
    void threeDeploymentGroupGetsPastTwoRefusingDeployments() throws IOException {
        try (MockUpstream gone = MockUpstream.start(MockOptions.defaults("gone", MockMode.NOTFOUND));
                MockUpstream rejecting = MockUpstream.start(MockOptions.defaults("rejecting", MockMode.REJECT));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: b}}
                          - {model_name: g, litellm_params: {model: openai/c, api_base: %s, weight: 0}, model_info: {id: c}}
                        """.formatted(gone.baseUrl(), rejecting.baseUrl(), healthy.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("c");
            assertThat(response.headers().firstValue("x-litellm-attempted-retries")).hasValue("2");
            assertThat(List.of(gone.requests(), rejecting.requests(), healthy.requests())).containsExactly(1, 1, 1);
        }
    }

    @Test
    void groupWhereEveryDeploymentRefusesCallsEachOnceAndAnswersTheLastUpstream() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream gone = MockUpstream.start(MockOptions.defaults("gone", MockMode.NOTFOUND));
                MockUpstream rejecting = MockUpstream.start(MockOptions.defaults("rejecting", MockMode.REJECT));
                MockUpstream locked = MockUpstream.start(MockOptions.defaults("locked", MockMode.AUTH));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: b}}
                          - {model_name: g, litellm_params: {model: openai/c, api_base: %s}, model_info: {id: c}}
                        router_settings: {num_retries: 5}
                        """.formatted(gone.baseUrl(), rejecting.baseUrl(), locked.baseUrl()), Map.of(), events)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(List.of(gone.requests(), rejecting.requests(), locked.requests())).containsExactly(1, 1, 1);
            List<String> attempts = events.brief().stream().filter(l -> l.startsWith("attempt ")).toList();
            assertThat(attempts).hasSize(3);
            String last = attempts.getLast().substring("attempt ".length());
            Map<String, Integer> statusOf = Map.of("a", 404, "b", 400, "c", 401);
            Map<String, String> nameOf = Map.of("a", "[gone]", "b", "[rejecting]", "c", "[locked]");
            assertThat(response.statusCode()).isEqualTo(statusOf.get(last));
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue(last);
            assertThat(response.headers().firstValue("x-litellm-attempted-retries")).hasValue("2");
            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).isEmpty();
            String message = error(response).path("message").asText();
            assertThat(message).startsWith(nameOf.get(last))
                    .endsWith("Sluice: model group 'g' failed with the error above. No fallback was attempted.");
            assertThat(error(response).path("upstream_status").asInt()).isEqualTo(statusOf.get(last));
        }
    }

    @Test
    void singleDeploymentGroupMakesExactlyOneCallForARefusal() throws IOException {
        try (MockUpstream gone = MockUpstream.start(MockOptions.defaults("gone", MockMode.NOTFOUND));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                        router_settings: {num_retries: 3}
                        """.formatted(gone.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(gone.requests()).isEqualTo(1);
            assertThat(response.headers().firstValue("x-litellm-attempted-retries")).hasValue("0");
        }
    }

    @Test
    void settledBadRequestWithRetriesLeftIsCalledOnceAndAnsweredWithTheProvidersMessage() throws IOException {
        try (MockUpstream rejecting = MockUpstream.start(MockOptions.defaults("rejecting", MockMode.REJECT));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                        router_settings: {num_retries: 2}
                        """.formatted(rejecting.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(rejecting.requests()).isEqualTo(1);
            assertThat(error(response).path("type").asText()).isEqualTo("invalid_request_error");
            assertThat(error(response).path("message").asText()).startsWith("[rejecting]")
                    .doesNotContain("all backends");
        }
    }

    @Test
    void rejectionsNeverBenchADeployment() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream rejecting = MockUpstream.start(MockOptions.defaults("rejecting", MockMode.REJECT));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        router_settings: {allowed_fails: 2}
                        """.formatted(rejecting.baseUrl(), backup.baseUrl()), Map.of(), events)) {
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("b");
            }
            assertThat(rejecting.requests()).as("still routable after four rejections").isEqualTo(4);
            assertThat(events.brief()).noneMatch(l -> l.startsWith("bench"));
        }
    }

    @Test
    void contentPolicyRefusalIsNotSentToASibling() throws IOException {
        try (MockUpstream strict = MockUpstream.start(MockOptions.defaults("strict", MockMode.POLICY));
                MockUpstream other = MockUpstream.start(MockOptions.defaults("other", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        """.formatted(strict.baseUrl(), other.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "say forbidden things"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(other.requests()).isZero();
            assertThat(strict.requests()).isEqualTo(1);
        }
    }

    @Test
    void contextWindowRefusalGoesOnlyToASiblingWithALargerWindow() throws IOException {
        try (MockUpstream small = MockUpstream.start(MockOptions.defaults("small", MockMode.CONTEXT).withMaxChars(5));
                MockUpstream sameSize = MockUpstream.start(MockOptions.defaults("same", MockMode.CONTEXT).withMaxChars(5));
                MockUpstream large = MockUpstream.start(MockOptions.defaults("large", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 5}, model_info: {id: small, max_input_tokens: 8000}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: same, max_input_tokens: 8000}}
                          - {model_name: g, litellm_params: {model: openai/c, api_base: %s, weight: 0}, model_info: {id: large, max_input_tokens: 128000}}
                        """.formatted(small.baseUrl(), sameSize.baseUrl(), large.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "a prompt longer than five"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("large");
            assertThat(small.requests() + sameSize.requests()).as("one small window tried, never the other").isEqualTo(1);
        }
    }

    private static HttpResponse<String> firstThatReachedTheBrokenLeg(TestGateway gateway, MockUpstream broken) {
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("gpt-failover", "Say ok"));
            if (broken.requests() > 0) {
                return response;
            }
        }
        throw new AssertionError("the weight-9 deployment was never picked in 20 calls");
    }

    static JsonNode error(HttpResponse<String> response) throws IOException {
        return Json.MAPPER.readTree(response.body()).path("error");
    }

    static String content(HttpResponse<String> response) throws IOException {
        return Json.MAPPER.readTree(response.body()).path("choices").path(0).path("message").path("content").asText();
    }
}
