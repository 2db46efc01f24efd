package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.RateLimitException;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.ResponseUsage;
import com.openai.models.responses.ToolChoiceFunction;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * OpenAI's own Java SDK against the OpenAI mock's Responses API: a whole answer, a stream of
 * typed events, tool calls and a round trip through {@code previous_response_id}. The client
 * validates every answer it parses, so a missing or mistyped required field fails the test.
 */
class OpenAiSdkResponsesMockTest {

    private static final String ASKED = "What is the weather in Paris this weekend, please?";
    private static final String ARGUMENTS = "{\"text\":\"What is the weather in Paris this weeken\"}";

    private MockUpstream mock;
    private OpenAIClient client;

    @BeforeEach
    void start() {
        mock = MockUpstream.start(MockOptions.defaults("gpt", MockMode.OK));
        client = OpenAIOkHttpClient.builder().baseUrl(mock.baseUrl()).apiKey("k").maxRetries(0)
                .responseValidation(true).build();
    }

    @AfterEach
    void stop() {
        client.close();
        mock.close();
    }

    private static FunctionTool function(String name) {
        return FunctionTool.builder().name(name).strict(false).parameters(FunctionTool.Parameters.builder()
                .putAdditionalProperty("type", JsonValue.from("object"))
                .putAdditionalProperty("properties", JsonValue.from(Map.of("text", Map.of("type", "string"))))
                .build()).build();
    }

    private static ResponseCreateParams.Builder askWithTools() {
        return ResponseCreateParams.builder().model("gpt-4o").input(ASKED)
                .addTool(function("get_weather")).addTool(function("get_time"));
    }

    private static ResponseFunctionToolCall onlyFunctionCall(Response response) {
        assertThat(response.output()).hasSize(1);
        ResponseOutputItem item = response.output().getFirst();
        assertThat(item.isFunctionCall()).isTrue();
        return item.asFunctionCall();
    }

    @Test
    void aWholeAnswerParsesWithItsMessageAndUsage() {
        Response response = client.responses().create(ResponseCreateParams.builder()
                .model("gpt-4o").instructions("be brief").input("where is my parcel").build());

        assertThat(response.id()).isEqualTo("resp_mock_1");
        assertThat(response.status()).hasValue(com.openai.models.responses.ResponseStatus.COMPLETED);
        assertThat(response.instructions()).isPresent();
        assertThat(response.output()).hasSize(1);
        assertThat(response.output().getFirst().isMessage()).isTrue();
        assertThat(response.output().getFirst().asMessage().content().getFirst().asOutputText().text())
                .isEqualTo("[gpt] you said: where is my parcel");
        ResponseUsage usage = response.usage().orElseThrow();
        // "be brief" and the question: 26 characters -> 7 tokens; the 34-character reply -> 9.
        assertThat(usage.inputTokens()).isEqualTo(7);
        assertThat(usage.outputTokens()).isEqualTo(9);
        assertThat(usage.totalTokens()).isEqualTo(16);
        assertThat(usage.inputTokensDetails().cachedTokens()).isZero();
        assertThat(usage.outputTokensDetails().reasoningTokens()).isZero();
    }

    @Test
    void aWholeAnswerCallsTheFirstToolOrTheNamedOne() {
        ResponseFunctionToolCall first = onlyFunctionCall(client.responses().create(askWithTools().build()));
        ResponseFunctionToolCall named = onlyFunctionCall(client.responses().create(askWithTools()
                .toolChoice(ToolChoiceFunction.builder().name("get_time").build()).build()));

        assertThat(first.id()).hasValue("fc_mock_1");
        assertThat(first.callId()).isEqualTo("call_mock_1");
        assertThat(first.name()).isEqualTo("get_weather");
        assertThat(first.arguments()).isEqualTo(ARGUMENTS);
        assertThat(named.name()).isEqualTo("get_time");
    }

    @Test
    void aStreamParsesAsTypedEventsEndingCompleted() {
        List<ResponseStreamEvent> events;
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(ResponseCreateParams.builder()
                .model("gpt-4o").input("where is my parcel").build())) {
            events = stream.stream().toList();
        }

        events.forEach(ResponseStreamEvent::validate);
        assertThat(events.get(0).isCreated()).isTrue();
        assertThat(events.get(1).isInProgress()).isTrue();
        assertThat(events.get(2).isOutputItemAdded()).isTrue();
        assertThat(events.get(3).isContentPartAdded()).isTrue();
        String text = events.stream().filter(ResponseStreamEvent::isOutputTextDelta)
                .map(event -> event.asOutputTextDelta().delta()).collect(Collectors.joining());
        assertThat(text).isEqualTo("[gpt] you said: where is my parcel");
        int last = events.size() - 1;
        assertThat(events.get(last - 3).asOutputTextDone().text()).isEqualTo(text);
        assertThat(events.get(last - 2).isContentPartDone()).isTrue();
        assertThat(events.get(last - 1).asOutputItemDone().item().asMessage().content().getFirst().asOutputText().text())
                .isEqualTo(text);
        assertThat(events.get(last).isCompleted()).isTrue();
        Response completed = events.get(last).asCompleted().response();
        assertThat(completed.output().getFirst().asMessage().content().getFirst().asOutputText().text()).isEqualTo(text);
        assertThat(completed.usage().orElseThrow().totalTokens()).isEqualTo(14);
    }

    @Test
    void aStreamedToolCallParsesAsArgumentEvents() {
        List<ResponseStreamEvent> events;
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(askWithTools().build())) {
            events = stream.stream().toList();
        }

        events.forEach(ResponseStreamEvent::validate);
        assertThat(events.get(2).asOutputItemAdded().item().asFunctionCall().name()).isEqualTo("get_weather");
        String arguments = events.stream().filter(ResponseStreamEvent::isFunctionCallArgumentsDelta)
                .map(event -> event.asFunctionCallArgumentsDelta().delta()).collect(Collectors.joining());
        assertThat(arguments).isEqualTo(ARGUMENTS);
        assertThat(events.get(5).asFunctionCallArgumentsDone().arguments()).isEqualTo(ARGUMENTS);
        assertThat(events.getLast().isCompleted()).isTrue();
        assertThat(onlyFunctionCall(events.getLast().asCompleted().response()).callId()).isEqualTo("call_mock_1");
    }

    @Test
    void theToolsOutputSentAfterThePreviousResponseIsAnsweredAsText() {
        Response asked = client.responses().create(askWithTools().build());
        ResponseFunctionToolCall call = onlyFunctionCall(asked);

        Response answered = client.responses().create(ResponseCreateParams.builder().model("gpt-4o")
                .previousResponseId(asked.id())
                .addTool(function("get_weather")).addTool(function("get_time"))
                .inputOfResponse(List.of(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                        .callId(call.callId()).output("sunny, 24 degrees").build())))
                .build());

        assertThat(answered.previousResponseId()).hasValue(asked.id());
        assertThat(answered.output().getFirst().asMessage().content().getFirst().asOutputText().text())
                .isEqualTo("[gpt] the tool said: sunny, 24 degrees");
        assertThat(mock.receivedPreviousResponseIds()).containsExactly(asked.id());
        assertThat(mock.receivedBodies().getLast().at("/input/0/call_id").asText()).isEqualTo(call.callId());
    }

    @Test
    void refusalsReachTheCallerAsTheSdksExceptions() {
        assertThatThrownBy(() -> client.responses().create(ResponseCreateParams.builder().model("gpt-4o")
                .previousResponseId("resp_gone").input("hi").build()))
                .isInstanceOfSatisfying(BadRequestException.class, refused -> {
                    assertThat(refused.statusCode()).isEqualTo(400);
                    assertThat(refused.getMessage()).contains("Previous response with id 'resp_gone' not found.");
                });

        mock.setMode(MockMode.RATELIMIT);
        assertThatThrownBy(() -> client.responses().create(ResponseCreateParams.builder().model("gpt-4o").input("hi").build()))
                .isInstanceOf(RateLimitException.class);
    }
}
