package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The headers LiteLLM's proxy puts on a model call's answer besides the routing ones:
 * {@code x-litellm-max-retries}, {@code x-litellm-timeout}, {@code x-litellm-version},
 * {@code x-litellm-model-api-base}, {@code x-litellm-response-duration-ms} and
 * {@code x-litellm-key-spend}, on whole answers, streams and errors.
 */
class LitellmResponseHeadersTest {
    private static final String MASTER = "sk-1234";
    private static final String STREAM = Reply.delta("hi") + "data: [DONE]\n\n";

    private static String config(String apiBase, String generalSettings) {
        return """
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: "%s", timeout: 7, input_cost_per_token: 0.001, output_cost_per_token: 0.002}
                    model_info: {id: dep-1}
                router_settings: {num_retries: 3, timeout: 30}
                general_settings: {%s}
                """.formatted(apiBase, generalSettings);
    }

    @Test
    void aWholeAnswerTellsItsRetriesTimeoutVersionApiBaseAndDuration() {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up");
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(), ""))) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(answer.statusCode()).isEqualTo(200);
            HttpHeaders headers = answer.headers();
            assertThat(headers.firstValue("x-litellm-max-retries")).hasValue("3");
            assertThat(headers.firstValue("x-litellm-timeout")).hasValue("7.0");
            assertThat(headers.firstValue("x-litellm-version")).hasValue("0.1.0.dev0");
            assertThat(headers.firstValue("x-litellm-model-api-base")).hasValue(upstream.baseUrl());
            assertThat(Double.parseDouble(headers.firstValue("x-litellm-response-duration-ms").orElseThrow())).isPositive();
            assertThat(headers.firstValue("x-litellm-key-spend")).isEmpty(); // no virtual key
        }
    }

    @Test
    void aStreamTellsThemInItsHead() {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.stream(End.COMPLETE, Chunk.now(STREAM)));
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(), ""))) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.stream("chat", "hi"));

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("data: [DONE]");
            HttpHeaders headers = answer.headers();
            assertThat(headers.firstValue("x-litellm-max-retries")).hasValue("3");
            assertThat(headers.firstValue("x-litellm-timeout")).hasValue("7.0");
            assertThat(headers.firstValue("x-litellm-version")).hasValue("0.1.0.dev0");
            assertThat(headers.firstValue("x-litellm-model-api-base")).hasValue(upstream.baseUrl());
            assertThat(Double.parseDouble(headers.firstValue("x-litellm-response-duration-ms").orElseThrow())).isPositive();
        }
    }

    @Test
    void theCallersRetriesAndShorterTimeoutAreToldBack() {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up");
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(), ""))) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions",
                    "{\"model\":\"chat\",\"num_retries\":1,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                    "x-litellm-timeout", "0.5");

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().firstValue("x-litellm-max-retries")).hasValue("1");
            assertThat(answer.headers().firstValue("x-litellm-timeout")).hasValue("0.5");
        }
    }

    @Test
    void anErrorTellsRetriesTimeoutAndVersionButNoApiBaseOrDuration() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.status(400));
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(), ""))) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(answer.statusCode()).isEqualTo(400);
            assertThat(Json.parse(answer.body().getBytes()).at("/error/message").asText()).contains("scripted 400");
            HttpHeaders headers = answer.headers();
            assertThat(headers.firstValue("x-litellm-max-retries")).hasValue("3");
            assertThat(headers.firstValue("x-litellm-timeout")).hasValue("7.0");
            assertThat(headers.firstValue("x-litellm-version")).hasValue("0.1.0.dev0");
            assertThat(headers.firstValue("x-litellm-model-api-base")).isEmpty();
            assertThat(headers.firstValue("x-litellm-response-duration-ms")).isEmpty();
        }
    }

    @Test
    void aCallRefusedBeforeRoutingStillNamesTheVersion() {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up");
                TestGateway gateway = TestGateway.start(config(upstream.baseUrl(), ""))) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("nope", "hi"));

            assertThat(answer.statusCode()).isEqualTo(400);
            assertThat(answer.headers().firstValue("x-litellm-version")).hasValue("0.1.0.dev0");
            assertThat(answer.headers().firstValue("x-litellm-max-retries")).isEmpty();
        }
    }

    @Test
    void aVirtualKeysSpendCountsAWholeAnswersCostButNotAStreamsYet() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                ScriptedUpstream whole = ScriptedUpstream.start("up", Reply.completion("ok"), Reply.completion("ok"),
                        Reply.stream(End.COMPLETE, Chunk.now(STREAM)));
                TestGateway gateway = TestGateway.start(config(whole.baseUrl(),
                        "master_key: " + MASTER + ", " + store.generalSetting()))) {
            String wholeKey = generate(gateway);
            String streamKey = generate(gateway);

            HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"),
                    "Authorization", "Bearer " + wholeKey);
            assertThat(answer.statusCode()).isEqualTo(200);
            // A fresh key had spent nothing: its spend after the call is the call's cost (1 * 0.001 + 1 * 0.002).
            assertThat(answer.headers().firstValue("x-litellm-response-cost")).hasValue("0.003");
            assertThat(answer.headers().firstValue("x-litellm-key-spend")).hasValue("0.003");

            HttpResponse<String> master = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"),
                    "Authorization", "Bearer " + MASTER);
            assertThat(master.headers().firstValue("x-litellm-key-spend")).isEmpty();

            HttpResponse<String> stream = gateway.post("/v1/chat/completions", Chat.stream("chat", "hi"),
                    "Authorization", "Bearer " + streamKey);
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(stream.headers().firstValue("x-litellm-key-spend")).hasValue("0.0");
        }
    }

    private static String generate(TestGateway gateway) throws IOException {
        HttpResponse<String> generated = gateway.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes()).path("key").asText();
    }
}
