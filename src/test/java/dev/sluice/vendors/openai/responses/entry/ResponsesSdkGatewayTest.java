package dev.sluice.vendors.openai.responses.entry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseRetrieveParams;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * OpenAI's Java SDK calling the gateway's Responses API over groups that serve only chat
 * completions (an OpenAI-compatible server with {@code use_responses_api: false}, and
 * Anthropic): every call bridged through chat, answered as {@code response} objects and
 * events, and kept for {@code previous_response_id}, over real sockets.
 */
class ResponsesSdkGatewayTest {
    private static final String CLAUDE_KEY = "sk-ant-upstream-0123456789";

    private static TestGateway gateway(MockUpstream gpt, MockUpstream claude) {
        return TestGateway.start("""
                model_list:
                  - {model_name: chat-only, litellm_params: {model: openai/gpt-4o, api_base: '%s', use_responses_api: false}}
                  - {model_name: claude, litellm_params: {model: anthropic/claude-sonnet-4-5, api_base: '%s', api_key: %s}}
                router_settings: {num_retries: 0}
                """.formatted(gpt.baseUrl(), claude.baseUrl(), CLAUDE_KEY));
    }

    private static MockUpstream gpt() {
        return MockUpstream.start(MockOptions.defaults("gpt", MockMode.OK));
    }

    private static MockUpstream claude() {
        return MockUpstream.start(MockOptions.defaults("claude", MockMode.OK).withApi(MockApi.ANTHROPIC).withApiKey(CLAUDE_KEY));
    }

    private static OpenAIClient client(TestGateway gateway) {
        return OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl()).apiKey("anything").maxRetries(0).build();
    }

    private static String text(Response response) {
        return response.output().stream().filter(item -> item.isMessage())
                .flatMap(item -> item.asMessage().content().stream())
                .map(content -> content.asOutputText().text()).reduce("", String::concat);
    }

    private static Response streamed(OpenAIClient client, ResponseCreateParams params, List<ResponseStreamEvent> seen) {
        ResponseAccumulator accumulator = ResponseAccumulator.create();
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(params)) {
            stream.stream().forEach(event -> {
                seen.add(event);
                accumulator.accumulate(event);
            });
        }
        return accumulator.response();
    }

    private static final FunctionTool WEATHER = FunctionTool.builder().name("get_weather").description("The weather in a city")
            .parameters(FunctionTool.Parameters.builder().putAdditionalProperty("type", JsonValue.from("object"))
                    .putAdditionalProperty("properties", JsonValue.from(java.util.Map.of("text", java.util.Map.of("type", "string"))))
                    .build())
            .strict(false).build();

    @Test
    void aCallIsAnsweredAsAResponseFromEitherChatOnlyGroup() {
        try (MockUpstream gpt = gpt(); MockUpstream claude = claude(); TestGateway gateway = gateway(gpt, claude)) {
            for (String group : List.of("chat-only", "claude")) {
                Response response = client(gateway).responses().create(ResponseCreateParams.builder().model(group)
                        .instructions("be brief").input("hello there").build());

                String who = group.equals("claude") ? "claude" : "gpt";
                assertThat(response.id()).as(group).startsWith("resp_");
                assertThat(response.status()).as(group).contains(ResponseStatus.COMPLETED);
                assertThat(text(response)).as(group).isEqualTo("[" + who + "] you said: hello there");
                assertThat(response.usage().orElseThrow().inputTokens()).as(group).isPositive();
                assertThat(response.usage().orElseThrow().outputTokens()).as(group).isPositive();
                assertThat(response.instructions()).as(group).isPresent();
            }
            JsonNode sent = gpt.receivedBodies().getFirst();
            assertThat(sent.at("/messages/0/role").asText()).isEqualTo("system");
            assertThat(sent.at("/messages/1/content").asText()).isEqualTo("hello there");
        }
    }

    @Test
    void aStreamIsTheResponsesEventSequenceAndAccumulatesToTheSameAnswer() {
        try (MockUpstream gpt = gpt(); MockUpstream claude = claude(); TestGateway gateway = gateway(gpt, claude)) {
            List<ResponseStreamEvent> seen = new ArrayList<>();
            Response response = streamed(client(gateway), ResponseCreateParams.builder().model("chat-only")
                    .input("stream me a few words").build(), seen);

            assertThat(text(response)).isEqualTo("[gpt] you said: stream me a few words");
            assertThat(seen.getFirst().isCreated()).isTrue();
            assertThat(seen.get(1).isInProgress()).isTrue();
            assertThat(seen.getLast().isCompleted()).isTrue();
            assertThat(seen.getLast().asCompleted().response().usage()).isPresent();
            assertThat(seen).anyMatch(ResponseStreamEvent::isOutputTextDelta).anyMatch(ResponseStreamEvent::isOutputItemDone);
            List<Long> numbers = seen.stream().map(ResponsesSdkGatewayTest::sequenceNumber).toList();
            for (int i = 0; i < numbers.size(); i++) {
                assertThat(numbers.get(i)).isEqualTo(i);
            }
        }
    }

    private static long sequenceNumber(ResponseStreamEvent event) {
        JsonNode tree = com.openai.core.ObjectMappers.jsonMapper().valueToTree(event);
        return tree.path("sequence_number").asLong(-1);
    }

    @Test
    void aFunctionCallRoundTripContinuesThroughPreviousResponseId() {
        try (MockUpstream gpt = gpt(); MockUpstream claude = claude(); TestGateway gateway = gateway(gpt, claude)) {
            OpenAIClient client = client(gateway);
            for (String group : List.of("chat-only", "claude")) {
                for (boolean stream : List.of(false, true)) {
                    String as = group + (stream ? " streamed" : " whole");
                    ResponseCreateParams first = ResponseCreateParams.builder().model(group).input("weather in Paris?")
                            .addTool(WEATHER).build();
                    Response asked = stream ? streamed(client, first, new ArrayList<>()) : client.responses().create(first);
                    ResponseFunctionToolCall call = asked.output().stream().filter(item -> item.isFunctionCall())
                            .findFirst().orElseThrow().asFunctionCall();
                    assertThat(call.name()).as(as).isEqualTo("get_weather");
                    assertThat(call.arguments()).as(as).contains("weather in Paris?");

                    ResponseCreateParams second = ResponseCreateParams.builder().model(group).previousResponseId(asked.id())
                            .inputOfResponse(List.of(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput
                                    .builder().callId(call.callId()).output("sunny").build())))
                            .addTool(WEATHER).build();
                    Response answered = stream ? streamed(client, second, new ArrayList<>()) : client.responses().create(second);

                    String who = group.equals("claude") ? "claude" : "gpt";
                    assertThat(text(answered)).as(as).isEqualTo("[" + who + "] the tool said: sunny");
                    assertThat(answered.previousResponseId()).as(as).contains(asked.id());
                }
            }
            JsonNode followUp = gpt.receivedBodies().get(1).path("messages");
            assertThat(followUp.get(0).path("content").asText()).as("the kept turns come first").isEqualTo("weather in Paris?");
            assertThat(followUp.get(1).at("/tool_calls/0/function/name").asText()).isEqualTo("get_weather");
            assertThat(followUp.get(2).path("role").asText()).isEqualTo("tool");
        }
    }

    @Test
    void aKeptResponseIsReadAndDeletedAndAnUnknownOneIsNotFound() {
        try (MockUpstream gpt = gpt(); MockUpstream claude = claude(); TestGateway gateway = gateway(gpt, claude)) {
            OpenAIClient client = client(gateway);
            Response made = client.responses().create(ResponseCreateParams.builder().model("chat-only").input("keep me").build());
            Response unkept = client.responses().create(ResponseCreateParams.builder().model("chat-only").input("forget me")
                    .store(false).build());

            assertThat(text(client.responses().retrieve(made.id()))).isEqualTo("[gpt] you said: keep me");
            assertThatThrownBy(() -> client.responses().retrieve(unkept.id())).isInstanceOf(NotFoundException.class);
            client.responses().delete(made.id());
            assertThatThrownBy(() -> client.responses().retrieve(made.id())).isInstanceOf(NotFoundException.class);
            assertThatThrownBy(() -> client.responses().create(ResponseCreateParams.builder().model("chat-only")
                    .previousResponseId("resp_unknown").input("hi").build()))
                    .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.getMessage())
                            .contains("Previous response with id 'resp_unknown' not found"));
            assertThat(gpt.receivedBodies()).as("an unknown previous response is refused before any call").hasSize(2);
        }
    }
}
