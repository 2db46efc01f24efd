package dev.sluice.vendors.bedrock.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.RateLimitException;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolChoiceOption;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The official OpenAI Java SDK, unchanged, calling Bedrock deployments through Sluice. */
class BedrockOpenAiSdkTest {
    private static MockUpstream bedrock;
    private static MockUpstream throttled;
    private static TestGateway gateway;
    private static OpenAIClient client;

    @BeforeAll
    static void start() {
        bedrock = MockUpstream.start(MockOptions.defaults("bedrock", MockMode.OK).withApi(MockApi.BEDROCK));
        throttled = MockUpstream.start(MockOptions.defaults("throttled", MockMode.RATELIMIT).withApi(MockApi.BEDROCK));
        String bedrockUrl = "http://127.0.0.1:" + bedrock.port();
        gateway = TestGateway.start("model_list:\n"
                + BedrockGatewayTest.deployment("claude", BedrockGatewayTest.CLAUDE, bedrockUrl, "b-1")
                + BedrockGatewayTest.deployment("titan", "amazon.titan-embed-text-v2:0", bedrockUrl, "t-1")
                + BedrockGatewayTest.deployment("busy", BedrockGatewayTest.CLAUDE, "http://127.0.0.1:" + throttled.port(), "busy-1")
                + "router_settings: {num_retries: 0}\n");
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        gateway.close();
        bedrock.close();
        throttled.close();
    }

    private static ChatCompletionCreateParams.Builder chat(String model) {
        return ChatCompletionCreateParams.builder().model(model).addSystemMessage("be brief").addUserMessage("Say hello to the SDK");
    }

    @Test
    void aWholeChat() {
        ChatCompletion completion = client.chat().completions().create(chat("claude").build());

        assertThat(completion.choices().get(0).message().content()).hasValue("[bedrock] you said: Say hello to the SDK");
        assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        assertThat(completion.usage()).hasValueSatisfying(u -> assertThat(u.totalTokens()).isEqualTo(u.promptTokens() + u.completionTokens()));
    }

    @Test
    void aStreamWithUsage() {
        List<String> parts = new ArrayList<>();
        long[] totalTokens = {0};
        ChatCompletionCreateParams params = chat("claude")
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> {
                chunk.choices().forEach(choice -> choice.delta().content().ifPresent(parts::add));
                chunk.usage().ifPresent(u -> totalTokens[0] = u.totalTokens());
            });
        }

        assertThat(String.join("", parts)).isEqualTo("[bedrock] you said: Say hello to the SDK");
        assertThat(totalTokens[0]).isPositive();
    }

    @Test
    void aToolCall() {
        ChatCompletionFunctionTool weather = ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder()
                .name("weather").parameters(FunctionParameters.builder().putAdditionalProperty("type", JsonValue.from("object")).build())
                .build()).build();
        ChatCompletion completion = client.chat().completions().create(chat("claude").addTool(weather)
                .toolChoice(ChatCompletionToolChoiceOption.Auto.REQUIRED).build());

        var call = completion.choices().get(0).message().toolCalls().orElseThrow().get(0).asFunction();
        assertThat(call.function().name()).isEqualTo("weather");
        assertThat(call.function().arguments()).contains("\"said\"");
        assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
    }

    @Test
    void embeddings() {
        CreateEmbeddingResponse response = client.embeddings().create(EmbeddingCreateParams.builder().model("titan").input("embed me").build());

        assertThat(response.data()).hasSize(1);
        assertThat(response.data().get(0).embedding()).hasSize(8);
        assertThat(response.usage().promptTokens()).isPositive();
    }

    @Test
    void throttlingIsTheSdksRateLimitError() {
        assertThatThrownBy(() -> client.chat().completions().create(chat("busy").build()))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.code()).hasValue("ThrottlingException");
                    assertThat(e.getMessage()).contains("[throttled] Too many requests");
                });
    }
}
