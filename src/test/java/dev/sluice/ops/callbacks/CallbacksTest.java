package dev.sluice.ops.callbacks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The call path's hook, in a gateway in this process: a served call, a failed one and a
 * stream reach the generic API receiver as LiteLLM's standard logging payloads, with what the
 * call did; a callback told only of failures hears nothing of a served call.
 */
class CallbacksTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static String config(String upstream, String litellmSettings) {
        return """
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/gpt-4o-mini, api_base: "%s", api_key: sk-upstream-key-0001}
                    model_info: {id: dep-1}
                router_settings: {num_retries: 0}
                litellm_settings:
                %s
                """.formatted(upstream, litellmSettings.indent(2));
    }

    @Test
    void aKeyAnUpstreamQuotesWhereItsPlainTextBodyIsCutIsMaskedWholeInTheFailurePayload() throws Exception {
        // A body that is not JSON is quoted up to its 1000th character; the key straddles that cut.
        String body = "x".repeat(985) + "sk-upstream-key-0001 was refused";
        try (Receiver receiver = Receiver.start();
                ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.body(500, "text/plain", body));
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(), "callbacks: [generic_api]"),
                        Map.of("GENERIC_LOGGER_ENDPOINT", receiver.url("/logs")))) {
            HttpResponse<String> failed = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"), "x-litellm-call-id", "cut-1");
            assertThat(failed.statusCode()).isEqualTo(500);

            JsonNode failure = Eventually.value("the failed call's payload", WAIT, () -> receiver.payload("cut-1"));
            assertThat(failure.path("error_str").asText()).startsWith("answered 500: xxx").doesNotContain("sk-upstream-key")
                    .contains("****0001");
        }
    }

    @Test
    void servedAndFailedCallsReachTheGenericApiReceiverAsStandardLoggingPayloads() throws Exception {
        try (Receiver receiver = Receiver.start();
                ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.completion("hello there"), Reply.status(500));
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(), "callbacks: [generic_api]"),
                        Map.of("GENERIC_LOGGER_ENDPOINT", receiver.url("/logs"), "GENERIC_LOGGER_HEADERS", "X-Team=blue"))) {
            HttpResponse<String> served = gateway.post("/v1/chat/completions",
                    "{\"model\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":0.5}",
                    "x-litellm-call-id", "served-1");
            HttpResponse<String> failed = gateway.post("/v1/chat/completions", Chat.body("chat", "again"),
                    "x-litellm-call-id", "failed-1");
            assertThat(served.statusCode()).isEqualTo(200);
            assertThat(failed.statusCode()).isEqualTo(500);

            JsonNode success = Eventually.value("the served call's payload", WAIT, () -> receiver.payload("served-1"));
            assertThat(success.path("status").asText()).isEqualTo("success");
            assertThat(success.path("call_type").asText()).isEqualTo("acompletion");
            assertThat(success.path("model_group").asText()).isEqualTo("chat");
            assertThat(success.path("model_id").asText()).isEqualTo("dep-1");
            assertThat(success.path("model").asText()).isEqualTo("gpt-4o-mini");
            assertThat(success.path("custom_llm_provider").asText()).isEqualTo("openai");
            assertThat(success.path("prompt_tokens").asLong()).isEqualTo(1);
            assertThat(success.path("completion_tokens").asLong()).isEqualTo(1);
            assertThat(success.path("model_parameters").path("temperature").asDouble()).isEqualTo(0.5);
            assertThat(success.path("messages").get(0).path("content").asText()).isEqualTo("hi");
            assertThat(success.path("response").path("choices").get(0).path("message").path("content").asText())
                    .isEqualTo("hello there");
            assertThat(success.path("endTime").asDouble()).isGreaterThanOrEqualTo(success.path("startTime").asDouble());

            JsonNode failure = Eventually.value("the failed call's payload", WAIT, () -> receiver.payload("failed-1"));
            assertThat(failure.path("status").asText()).isEqualTo("failure");
            assertThat(failure.path("error_information").path("error_code").asText()).isEqualTo("500");
            assertThat(failure.path("error_information").path("error_class").asText()).isEqualTo("InternalServerError");
            assertThat(failure.path("error_information").path("llm_provider").asText()).isEqualTo("openai");
            assertThat(failure.path("error_str").asText()).isNotEmpty();
            assertThat(receiver.posts()).allSatisfy(post -> {
                assertThat(post.custom()).isEqualTo("blue");
                assertThat(post.contentType()).isEqualTo("application/json");
                assertThat(post.body().toString()).doesNotContain("sk-upstream-key-0001");
            });
        }
    }

    @Test
    void aCallTheResponseCacheAnswersIsLoggedAsAHitThatCostNothing() throws Exception {
        try (Receiver receiver = Receiver.start();
                ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.completion("hello there"));
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(),
                        "callbacks: [generic_api]\ncache: true\ncache_params: {type: local}"),
                        Map.of("GENERIC_LOGGER_ENDPOINT", receiver.url("/logs")))) {
            gateway.post("/v1/chat/completions", Chat.body("chat", "hi"), "x-litellm-call-id", "miss-1");
            HttpResponse<String> hit = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"), "x-litellm-call-id", "hit-1");
            String key = hit.headers().firstValue("x-litellm-cache-key").orElseThrow();

            JsonNode missed = Eventually.value("the first call's payload", WAIT, () -> receiver.payload("miss-1"));
            JsonNode answered = Eventually.value("the hit's payload", WAIT, () -> receiver.payload("hit-1"));
            assertThat(missed.path("cache_hit").asBoolean()).isFalse();
            assertThat(missed.path("cache_key").asText()).isEqualTo(key);
            assertThat(answered.path("status").asText()).isEqualTo("success");
            assertThat(answered.path("cache_hit").asBoolean()).isTrue();
            assertThat(answered.path("cache_key").asText()).isEqualTo(key);
            assertThat(answered.path("response_cost").asDouble()).isZero();
            assertThat(answered.path("model_group").asText()).isEqualTo("chat");
            assertThat(answered.path("response").path("choices").get(0).path("message").path("content").asText())
                    .isEqualTo("hello there");
            assertThat(upstream.calls()).isEqualTo(1);
        }
    }

    @Test
    void aStreamIsLoggedWithItsAssembledTextAndWhenItsFirstEventCame() throws Exception {
        try (Receiver receiver = Receiver.start();
                ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.stream(End.COMPLETE,
                        Chunk.now(Reply.delta("Hello")), new Chunk(Duration.ofMillis(300), Reply.delta(", world")),
                        Chunk.now("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                                + "\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")));
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(), "success_callback: [generic_api]"),
                        Map.of("GENERIC_LOGGER_ENDPOINT", receiver.url("/logs")))) {
            HttpResponse<String> streamed = gateway.post("/v1/chat/completions", Chat.stream("chat", "hi"),
                    "x-litellm-call-id", "stream-1");
            assertThat(streamed.body()).contains("[DONE]");

            JsonNode payload = Eventually.value("the stream's payload", WAIT, () -> receiver.payload("stream-1"));
            assertThat(payload.path("status").asText()).isEqualTo("success");
            assertThat(payload.path("stream").asBoolean()).isTrue();
            assertThat(payload.path("response").path("choices").get(0).path("message").path("content").asText())
                    .isEqualTo("Hello, world");
            assertThat(payload.path("response").path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
            double start = payload.path("startTime").asDouble();
            double first = payload.path("completionStartTime").asDouble();
            double end = payload.path("endTime").asDouble();
            assertThat(first).isBetween(start, end);
            assertThat(end - first).as("the last event came 300 ms after the first").isGreaterThanOrEqualTo(0.25);
        }
    }

    @Test
    void aFailureCallbackHearsOfFailedCallsOnlyAndMessageLoggingOffKeepsThePromptOut() throws Exception {
        try (Receiver receiver = Receiver.start();
                ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.completion("fine"), Reply.status(400));
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(),
                        "failure_callback: [generic_api]\nturn_off_message_logging: true"),
                        Map.of("GENERIC_LOGGER_ENDPOINT", receiver.url("/logs")))) {
            gateway.post("/v1/chat/completions", Chat.body("chat", "a private question"), "x-litellm-call-id", "ok-1");
            gateway.post("/v1/chat/completions", Chat.body("chat", "a private question"), "x-litellm-call-id", "bad-1");

            JsonNode failure = Eventually.value("the failed call's payload", WAIT, () -> receiver.payload("bad-1"));
            assertThat(failure.path("error_information").path("error_class").asText()).isEqualTo("BadRequestError");
            assertThat(failure.path("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":\"redacted-by-litellm\"}]");
            assertThat(receiver.payload("ok-1")).isEmpty();
            assertThat(receiver.posts().toString()).doesNotContain("a private question");
        }
    }
}
