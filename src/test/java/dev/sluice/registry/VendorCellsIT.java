package dev.sluice.registry;

import static dev.sluice.registry.ReplicaPair.assertServed;
import static dev.sluice.registry.ReplicaPair.chat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.GatewayProcess;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry's cells for vendors that speak their own APIs: two replicas of the built jar,
 * sharing the local Redis, in front of mocks that speak Anthropic's Messages API, Gemini's
 * generateContent and Bedrock's Converse, each failing the way that vendor fails (Anthropic's
 * 529 {@code overloaded_error}, Bedrock's {@code ThrottlingException} with its wait, Gemini's
 * prompt blocked for safety). The caller speaks OpenAI throughout, and every answer it gets is
 * OpenAI's, whichever vendor gave it. Each cell has groups and mocks of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VendorCellsIT {
    /** Bedrock's ThrottlingException wait, in seconds. */
    private static final int THROTTLE_SECONDS = 1;

    private final ReplicaPair pair = new ReplicaPair();
    private GatewayProcess a;
    private GatewayProcess b;

    @BeforeAll
    void startReplicas(@TempDir Path folder) {
        pair.mock(MockOptions.defaults("xv-openai", MockMode.FAIL));
        pair.mock(MockOptions.defaults("xv-claude", MockMode.OK).withApi(MockApi.ANTHROPIC));
        pair.mock(MockOptions.defaults("ovl-claude", MockMode.FAIL).withApi(MockApi.ANTHROPIC));
        pair.mock(MockOptions.defaults("ovl-claude-sibling", MockMode.OK).withApi(MockApi.ANTHROPIC));
        pair.mock(MockOptions.defaults("thr-bedrock", MockMode.RATELIMIT).withApi(MockApi.BEDROCK)
                .withRetryAfterSeconds(THROTTLE_SECONDS).withTimes(1));
        pair.mock(MockOptions.defaults("safe-gemini", MockMode.POLICY).withApi(MockApi.GEMINI).withTriggerWord("forbidden"));
        pair.mock(MockOptions.defaults("safe-gemini-sibling", MockMode.OK).withApi(MockApi.GEMINI));
        pair.mock(MockOptions.defaults("safe-target", MockMode.OK));
        pair.mock(MockOptions.defaults("safe-general", MockMode.OK));
        pair.mock(MockOptions.defaults("xa-claude", MockMode.FAIL).withApi(MockApi.ANTHROPIC));
        pair.mock(MockOptions.defaults("xa-openai", MockMode.OK));
        String modelList = pair.deployment("xv-openai", "xv-openai", "xv-openai", "")
                + vendor("xv-claude", "xv-claude", "anthropic/claude-sonnet-4-5", "api_base: " + base("xv-claude"))
                + vendor("ovl-claude", "ovl-claude", "anthropic/claude-sonnet-4-5", "api_base: " + base("ovl-claude") + ", weight: 1000")
                + vendor("ovl-claude", "ovl-claude-sibling", "anthropic/claude-sonnet-4-5",
                        "api_base: " + base("ovl-claude-sibling") + ", weight: 0")
                + vendor("thr-bedrock", "thr-bedrock", "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
                        "aws_bedrock_runtime_endpoint: " + root("thr-bedrock")
                                + ", aws_access_key_id: mock-key, aws_secret_access_key: mock-secret, aws_region_name: us-east-1")
                + vendor("safe-gemini", "safe-gemini", "gemini/gemini-2.5-flash", "api_base: " + root("safe-gemini") + ", weight: 1000")
                + vendor("safe-gemini", "safe-gemini-sibling", "gemini/gemini-2.5-flash",
                        "api_base: " + root("safe-gemini-sibling") + ", weight: 0")
                + pair.deployment("safe-target", "safe-target", "safe-target", "")
                + pair.deployment("safe-general", "safe-general", "safe-general", "")
                + vendor("xa-claude", "xa-claude", "anthropic/claude-sonnet-4-5", "api_base: " + base("xa-claude"))
                + pair.deployment("xa-openai", "xa-openai", "xa-openai", "");
        pair.start(folder, modelList, "", """
                  allowed_fails_policy: {InternalServerErrorAllowedFails: 0}
                  cooldown_time: 30
                  fallbacks:
                    - xv-openai: [xv-claude]
                    - safe-gemini: [safe-general]
                    - xa-claude: [xa-openai]
                  content_policy_fallbacks:
                    - safe-gemini: [safe-target]
                """);
        a = pair.a();
        b = pair.b();
    }

    @AfterAll
    void stop() {
        pair.close();
    }

    /** A {@code model_list} entry of a vendor's own API, with the mock's key. */
    private static String vendor(String group, String id, String model, String params) {
        return "  - {model_name: %s, litellm_params: {model: %s, api_key: mock-key, %s}, model_info: {id: %s}}\n"
                .formatted(group, model, params, id);
    }

    /** The mock's address as an OpenAI-style base ({@code .../v1}). */
    private String base(String mock) {
        return pair.mock(mock).baseUrl();
    }

    /** The mock's address without a path, for vendors whose paths start at the host. */
    private String root(String mock) {
        String base = pair.mock(mock).baseUrl();
        return base.substring(0, base.length() - "/v1".length());
    }

    @Test
    void anOpenAiGroupThatFailsFallsBackToAnAnthropicOneAndTheCallerGetsOpenAisShape() {
        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("xv-openai", "hi", ""));

        assertServed(answer, "xv-claude", "xv-claude", 0, 1);
        assertThat(answer.body()).contains("\"object\":\"chat.completion\"", "\"finish_reason\":\"stop\"");
        assertThat(pair.requests("xv-claude")).isEqualTo(1);
        assertThat(pair.mock("xv-claude").receivedBodies().getFirst().has("max_tokens"))
                .as("the Anthropic call was written in Anthropic's format").isTrue();

        HttpResponse<String> streamed = b.post("/v1/chat/completions", chat("xv-openai", "hi", ", \"stream\": true"));
        assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(200);
        assertThat(streamed.headers().firstValue("x-litellm-model-group")).hasValue("xv-claude");
        assertThat(streamed.body()).contains("chat.completion.chunk", "[xv-claude]", "data: [DONE]");
    }

    @Test
    void aMessagesCallWhoseAnthropicGroupFailsFallsBackToAnOpenAiGroupAndIsAnsweredInAnthropicsShape() {
        String ask = "{\"model\": \"xa-claude\", \"max_tokens\": 64, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]%s}";
        HttpResponse<String> answer = a.post("/v1/messages", ask.formatted(""));

        assertServed(answer, "xa-openai", "xa-openai", 0, 1);
        assertThat(answer.body()).contains("\"type\":\"message\"", "\"stop_reason\":\"end_turn\"", "[xa-openai]");
        assertThat(pair.mock("xa-claude").receivedBodies().getFirst().path("max_tokens").asInt())
                .as("the Anthropic group was sent the caller's own body").isEqualTo(64);
        assertThat(pair.mock("xa-openai").receivedBodies().getFirst().has("messages"))
                .as("the fallback was sent OpenAI's chat form").isTrue();

        HttpResponse<String> streamed = b.post("/v1/messages", ask.formatted(", \"stream\": true"));
        assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(200);
        assertThat(streamed.headers().firstValue("x-litellm-model-group")).hasValue("xa-openai");
        assertThat(streamed.body()).startsWith("event: message_start").contains("event: message_stop", "[xa-openai]")
                .doesNotContain("data: [DONE]");
    }

    @Test
    void anOverloadedAnthropicDeploymentIsFailedOverToItsSiblingAndBenchedOnBothReplicas() {
        HttpResponse<String> first = a.post("/v1/chat/completions", chat("ovl-claude", "hi", ""));

        assertServed(first, "ovl-claude", "ovl-claude-sibling", 1, 0);
        assertThat(pair.requests("ovl-claude")).as("the 529 is not repeated on the same deployment").isEqualTo(1);
        int before = pair.requests("ovl-claude");
        for (int i = 0; i < 4; i++) {
            assertServed(b.post("/v1/chat/completions", chat("ovl-claude", "hi", "")), "ovl-claude", "ovl-claude-sibling", 0, 0);
        }
        assertThat(pair.requests("ovl-claude")).as("benched after its overload, seen by the other replica too").isEqualTo(before);
    }

    @Test
    void bedrockThrottlingIsRetriedOnTheSameDeploymentAfterItsWait() {
        long start = System.nanoTime();
        HttpResponse<String> answer = b.post("/v1/chat/completions", chat("thr-bedrock", "hi", ""));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertServed(answer, "thr-bedrock", "thr-bedrock", 1, 0);
        assertThat(pair.requests("thr-bedrock")).as("the ThrottlingException and its repeat").isEqualTo(2);
        assertThat(took).as("ms before the answer: the repeat waited for Retry-After: %d", THROTTLE_SECONDS)
                .isGreaterThanOrEqualTo(THROTTLE_SECONDS * 1000L - 50);
    }

    @Test
    void aGeminiSafetyBlockTakesContentPolicyFallbacksNotTheSiblingOrTheGeneralList() {
        int sibling = pair.requests("safe-gemini-sibling");
        int general = pair.requests("safe-general");

        HttpResponse<String> answer = a.post("/v1/chat/completions", chat("safe-gemini", "tell me something forbidden", ""));

        assertServed(answer, "safe-target", "safe-target", 0, 1);
        assertThat(pair.requests("safe-gemini")).isEqualTo(1);
        assertThat(pair.requests("safe-gemini-sibling")).as("a content-policy refusal is not sent to a sibling").isEqualTo(sibling);
        assertThat(pair.requests("safe-general")).as("nor to the general fallbacks").isEqualTo(general);
    }
}
