package dev.sluice.vendors.openai.responses.entry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseStreamEvent;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * OpenAI's Java SDK calling the gateway's Responses API over an {@code openai/} group whose
 * server serves the Responses API itself: the caller's body goes untranslated and the answers
 * and events come back as written, the vendor's own {@code previous_response_id} forwarded;
 * and a response the gateway kept continued on that group with its turns in the input.
 */
class ResponsesNativeGatewayTest {

    private static TestGateway gateway(MockUpstream openAi, MockUpstream chatOnly) {
        return TestGateway.start("""
                model_list:
                  - {model_name: gpt-native, litellm_params: {model: openai/gpt-4o, api_base: '%s'}}
                  - {model_name: chat-only, litellm_params: {model: openai/gpt-4o, api_base: '%s', use_responses_api: false}}
                router_settings: {num_retries: 0}
                """.formatted(openAi.baseUrl(), chatOnly.baseUrl()));
    }

    private static OpenAIClient client(TestGateway gateway) {
        return OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl()).apiKey("anything").maxRetries(0).build();
    }

    private static String text(Response response) {
        return response.output().stream().filter(item -> item.isMessage()).flatMap(item -> item.asMessage().content().stream())
                .map(content -> content.asOutputText().text()).reduce("", String::concat);
    }

    private static final FunctionTool WEATHER = FunctionTool.builder().name("get_weather")
            .parameters(FunctionTool.Parameters.builder().putAdditionalProperty("type", JsonValue.from("object")).build())
            .strict(false).build();

    @Test
    void theCallersBodyGoesToTheResponsesApiAndItsAnswerComesBackAsWritten() throws IOException {
        try (MockUpstream openAi = MockUpstream.start(MockOptions.defaults("oai", MockMode.OK));
                MockUpstream chatOnly = MockUpstream.start(MockOptions.defaults("chat", MockMode.OK));
                TestGateway gateway = gateway(openAi, chatOnly)) {
            HttpResponse<String> raw = gateway.post("/v1/responses", """
                    {"model":"gpt-native","input":"hello there","truncation":"auto","include":["reasoning.encrypted_content"],
                     "a_field_from_the_future":{"kept":true},"num_retries":1}""");

            assertThat(raw.statusCode()).isEqualTo(200);
            JsonNode answer = Json.parse(raw.body().getBytes());
            assertThat(answer.path("id").asText()).as("the vendor's own id").startsWith("resp_mock_");
            assertThat(answer.at("/output/0/content/0/text").asText()).isEqualTo("[oai] you said: hello there");
            JsonNode sent = openAi.receivedBodies().getFirst();
            assertThat(sent.path("input").asText()).isEqualTo("hello there");
            assertThat(sent.at("/a_field_from_the_future/kept").asBoolean()).isTrue();
            assertThat(sent.has("num_retries")).as("the gateway's own field stays home").isFalse();
            assertThat(raw.headers().firstValue("x-litellm-model-group")).contains("gpt-native");
            assertThat(raw.headers().firstValue("x-litellm-response-cost")).isPresent();
        }
    }

    @Test
    void whatOnlyTheResponsesApiTakesReachesTheVendorAndIsRefusedNamedForAChatOnlyGroup() throws IOException {
        try (MockUpstream openAi = MockUpstream.start(MockOptions.defaults("oai", MockMode.OK));
                MockUpstream chatOnly = MockUpstream.start(MockOptions.defaults("chat", MockMode.OK));
                TestGateway gateway = gateway(openAi, chatOnly)) {
            String body = "{\"model\":\"%s\",\"input\":\"news today?\",\"tools\":[{\"type\":\"web_search\"}]}";

            assertThat(gateway.post("/v1/responses", body.formatted("gpt-native")).statusCode()).isEqualTo(200);
            assertThat(openAi.receivedBodies().getFirst().at("/tools/0/type").asText()).isEqualTo("web_search");
            HttpResponse<String> refused = gateway.post("/v1/responses", body.formatted("chat-only"));
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(Json.parse(refused.body().getBytes()).at("/error/message").asText()).contains("tools[0] (web_search)");
            assertThat(chatOnly.receivedBodies()).isEmpty();
        }
    }

    @Test
    void aStreamAndAFunctionCallRoundTripUseTheVendorsOwnIds() {
        try (MockUpstream openAi = MockUpstream.start(MockOptions.defaults("oai", MockMode.OK));
                MockUpstream chatOnly = MockUpstream.start(MockOptions.defaults("chat", MockMode.OK));
                TestGateway gateway = gateway(openAi, chatOnly)) {
            OpenAIClient client = client(gateway);
            ResponseAccumulator accumulator = ResponseAccumulator.create();
            List<ResponseStreamEvent> seen = new ArrayList<>();
            try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(ResponseCreateParams.builder()
                    .model("gpt-native").input("weather in Paris?").addTool(WEATHER).build())) {
                stream.stream().forEach(event -> {
                    seen.add(event);
                    accumulator.accumulate(event);
                });
            }
            Response asked = accumulator.response();
            ResponseFunctionToolCall call = asked.output().stream().filter(item -> item.isFunctionCall()).findFirst()
                    .orElseThrow().asFunctionCall();
            assertThat(seen.getLast().isCompleted()).isTrue();
            assertThat(call.name()).isEqualTo("get_weather");

            Response answered = client.responses().create(ResponseCreateParams.builder().model("gpt-native")
                    .previousResponseId(asked.id()).addTool(WEATHER)
                    .inputOfResponse(List.of(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                            .callId(call.callId()).output("sunny").build())))
                    .build());

            assertThat(text(answered)).isEqualTo("[oai] the tool said: sunny");
            assertThat(openAi.receivedPreviousResponseIds()).containsExactly(asked.id());
            assertThat(chatOnly.receivedBodies()).isEmpty();
        }
    }

    @Test
    void aResponseTheGatewayKeptIsContinuedOnTheVendorWithItsTurnsInTheInput() {
        try (MockUpstream openAi = MockUpstream.start(MockOptions.defaults("oai", MockMode.OK));
                MockUpstream chatOnly = MockUpstream.start(MockOptions.defaults("chat", MockMode.OK));
                TestGateway gateway = gateway(openAi, chatOnly)) {
            OpenAIClient client = client(gateway);
            Response kept = client.responses().create(ResponseCreateParams.builder().model("chat-only")
                    .input("my name is Ada").build());

            Response continued = client.responses().create(ResponseCreateParams.builder().model("gpt-native")
                    .previousResponseId(kept.id()).input("what is my name?").build());

            assertThat(text(continued)).isEqualTo("[oai] you said: what is my name?");
            JsonNode sent = openAi.receivedBodies().getFirst();
            assertThat(sent.has("previous_response_id")).as("an id the vendor never made is not sent to it").isFalse();
            assertThat(sent.has("sluice_continued_from")).isFalse();
            assertThat(sent.path("input").toString()).contains("my name is Ada", "[chat] you said: my name is Ada",
                    "what is my name?");
        }
    }

    @Test
    void aFailingVendorFallsBackToAChatOnlyGroupAndTheCallerStillGetsAResponse() throws IOException {
        try (MockUpstream openAi = MockUpstream.start(MockOptions.defaults("oai", MockMode.FAIL));
                MockUpstream chatOnly = MockUpstream.start(MockOptions.defaults("chat", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: gpt-native, litellm_params: {model: openai/gpt-4o, api_base: '%s'}}
                          - {model_name: chat-only, litellm_params: {model: openai/gpt-4o, api_base: '%s', use_responses_api: false}}
                        router_settings: {num_retries: 0, fallbacks: [{gpt-native: [chat-only]}]}
                        """.formatted(openAi.baseUrl(), chatOnly.baseUrl()))) {
            HttpResponse<String> raw = gateway.post("/v1/responses", "{\"model\":\"gpt-native\",\"input\":\"hello there\"}");

            assertThat(raw.statusCode()).isEqualTo(200);
            JsonNode answer = Json.parse(raw.body().getBytes());
            assertThat(answer.path("object").asText()).isEqualTo("response");
            assertThat(answer.at("/output/0/content/0/text").asText()).isEqualTo("[chat] you said: hello there");
            assertThat(raw.headers().firstValue("x-litellm-model-group")).contains("chat-only");
            assertThat(openAi.receivedBodies()).hasSize(1);
            assertThat(chatOnly.receivedBodies().getFirst().has("messages")).isTrue();
        }
    }
}
