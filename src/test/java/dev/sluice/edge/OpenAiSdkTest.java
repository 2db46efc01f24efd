package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The official OpenAI Java SDK, unchanged, pointed at Sluice. */
class OpenAiSdkTest {
    private static MockUpstream upstream;
    private static TestGateway gateway;
    private static OpenAIClient client;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("sdk-up", MockMode.OK));
        gateway = TestGateway.start("""
                model_list:
                  - model_name: gpt-4o-mini
                    litellm_params: {model: openai/gpt-4o-mini, api_base: %s}
                general_settings: {master_key: sk-sdk-test}
                """.formatted(upstream.baseUrl()));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("sk-sdk-test").maxRetries(0).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        gateway.close();
        upstream.close();
    }

    private static ChatCompletionCreateParams.Builder chat(String model) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage("Say hello to the SDK");
    }

    @Test
    void nonStreamingChat() {
        ChatCompletion completion = client.chat().completions().create(chat("gpt-4o-mini").build());

        assertThat(completion.choices()).hasSize(1);
        assertThat(completion.choices().get(0).message().content()).hasValueSatisfying(c -> assertThat(c).startsWith("[sdk-up]"));
        assertThat(completion.usage()).hasValueSatisfying(u -> assertThat(u.totalTokens()).isPositive());
    }

    @Test
    void streamingChatWithUsage() {
        List<String> parts = new ArrayList<>();
        long[] totalTokens = {0};
        ChatCompletionCreateParams params = chat("gpt-4o-mini")
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> {
                chunk.choices().forEach(choice -> choice.delta().content().ifPresent(parts::add));
                chunk.usage().ifPresent(u -> totalTokens[0] = u.totalTokens());
            });
        }

        assertThat(String.join("", parts)).startsWith("[sdk-up]");
        assertThat(totalTokens[0]).isPositive();
    }

    @Test
    void embeddings() {
        CreateEmbeddingResponse response = client.embeddings().create(
                EmbeddingCreateParams.builder().model("gpt-4o-mini").input("embed me").build());

        assertThat(response.data()).hasSize(1);
        assertThat(response.data().get(0).embedding()).isNotEmpty();
    }

    @Test
    void unknownModelIsABadRequestTheSdkUnderstands() {
        assertThatThrownBy(() -> client.chat().completions().create(chat("no-such-group").build()))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("gpt-4o-mini");
    }

    @Test
    void wrongKeyIsUnauthorized() {
        OpenAIClient wrong = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("sk-nope").maxRetries(0).build();
        try {
            assertThatThrownBy(() -> wrong.chat().completions().create(chat("gpt-4o-mini").build()))
                    .isInstanceOf(UnauthorizedException.class);
        } finally {
            wrong.close();
        }
    }
}
