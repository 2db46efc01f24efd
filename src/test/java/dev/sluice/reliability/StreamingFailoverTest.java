package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A stream goes through the same loop until its first event reaches the caller; after that there is no silent retry. */
class StreamingFailoverTest {

    @Test
    void failedStreamFailsOverBeforeAnythingIsSent() throws IOException {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        """.formatted(failing.baseUrl(), healthy.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("b");
            assertThat(response.headers().firstValue("x-litellm-attempted-retries")).hasValue("1");
            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("0");
            assertThat(response.body()).contains("[healthy]").endsWith("data: [DONE]\n\n");
        }
    }

    @Test
    void streamCutBeforeItsFirstEventIsRetriedElsewhere() throws IOException {
        try (ScriptedUpstream cut = ScriptedUpstream.always("cut", ScriptedUpstream.Reply.halfEvent(false));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        """.formatted(cut.baseUrl(), healthy.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(cut.calls()).isEqualTo(1);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("b");
            assertThat(response.body()).doesNotContain("\"id\":\n").contains("[healthy]").endsWith("data: [DONE]\n\n");
        }
    }

    @Test
    void streamCutAfterItsFirstEventEndsWithAnErrorEventAndIsNotRetried() throws IOException {
        try (MockUpstream cutting = MockUpstream.start(MockOptions.defaults("cutting", MockMode.CUT));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        """.formatted(cutting.baseUrl(), healthy.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("a");
            assertThat(response.body()).contains("stream_interrupted").doesNotContain("[DONE]");
            assertThat(healthy.requests()).isZero();
        }
    }

    @Test
    void streamThatEndsWithoutAnEventIsAFailedAttempt() throws IOException {
        try (ScriptedUpstream empty = ScriptedUpstream.start("empty", ScriptedUpstream.Reply.emptyStream());
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        """.formatted(empty.baseUrl(), healthy.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(empty.calls()).isEqualTo(1);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("b");
            assertThat(response.body()).endsWith("data: [DONE]\n\n");
        }
    }
}
