package dev.sluice.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FailureClassifierTest {

    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    // Bodies as the providers send them.

    private static final String OPENAI_CONTEXT = """
            {"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages \
            resulted in 130017 tokens. Please reduce the length of the messages.","type":"invalid_request_error",\
            "param":"messages","code":"context_length_exceeded"}}""";
    private static final String OPENAI_RESPONSES_CONTEXT = """
            {"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and \
            try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}""";
    private static final String OPENAI_IMAGE_POLICY = """
            {"error":{"code":"content_policy_violation","message":"Your request was rejected as a result of our \
            safety system. Your prompt may contain text that is not allowed by our safety system.","param":null,\
            "type":"invalid_request_error"}}""";
    private static final String OPENAI_INVALID_PROMPT = """
            {"error":{"message":"Invalid prompt: your prompt was flagged as potentially violating our usage policy. \
            Please try again with a different prompt: https://platform.openai.com/docs/guides/reasoning#advice-on-prompting",\
            "type":"invalid_request_error","param":null,"code":"invalid_prompt"}}""";
    private static final String OPENAI_TEMPERATURE = """
            {"error":{"message":"Invalid value for 'temperature': decimal above maximum value. Expected a value <= 2, \
            but got 3 instead.","type":"invalid_request_error","param":"temperature","code":"decimal_above_max_value"}}""";
    private static final String OPENAI_MAX_TOKENS = """
            {"error":{"message":"max_tokens is too large: 100000. This model supports at most 16384 completion tokens, \
            whereas you provided 100000.","type":"invalid_request_error","param":"max_tokens","code":null}}""";
    private static final String OPENAI_STRING_TOO_LONG = """
            {"error":{"message":"Invalid 'messages[0].content': string too long. Expected a string with maximum length \
            10485760, but got a string with length 12000000 instead.","type":"invalid_request_error",\
            "param":"messages[0].content","code":"string_above_max_length"}}""";
    private static final String OPENAI_UNKNOWN_ARGUMENT = """
            {"error":{"message":"Unrecognized request argument supplied: content_filter","type":"invalid_request_error",\
            "param":null,"code":null}}""";
    private static final String OPENAI_PROMPT_TYPE = """
            {"error":{"message":"Invalid type for 'prompt': expected a string, but got an object instead.",\
            "type":"invalid_request_error","param":"prompt","code":"invalid_type"}}""";
    private static final String OPENAI_RATE_LIMIT = """
            {"error":{"message":"Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit \
            30000, Used 29000, Requested 2000. Please try again in 2s.","type":"tokens","param":null,\
            "code":"rate_limit_exceeded"}}""";
    private static final String OPENAI_MODEL_NOT_FOUND = """
            {"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.",\
            "type":"invalid_request_error","param":null,"code":"model_not_found"}}""";

    private static final String AZURE_CONTENT_FILTER = """
            {"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI's content \
            management policy. Please modify your prompt and retry. To learn more about our content filtering \
            policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766","type":null,\
            "param":"prompt","code":"content_filter","status":400,"innererror":{"code":"ResponsibleAIPolicyViolation",\
            "content_filter_result":{"hate":{"filtered":false,"severity":"safe"},"jailbreak":{"filtered":false,\
            "detected":false},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,\
            "severity":"safe"},"violence":{"filtered":true,"severity":"medium"}}}}}""";
    private static final String AZURE_INNER_ONLY = """
            {"error":{"message":"Request blocked.","type":"invalid_request_error","param":"prompt",\
            "code":"invalid_request_error","innererror":{"code":"ResponsibleAIPolicyViolation"}}}""";
    private static final String AZURE_CONTEXT = """
            {"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted \
            in 9000 tokens. Please reduce the length of the messages.","type":"invalid_request_error",\
            "param":"messages","code":"context_length_exceeded","status":400}}""";
    private static final String AZURE_DEPLOYMENT_NOT_FOUND = """
            {"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}""";

    private static final String ANTHROPIC_PROMPT_TOO_LONG = """
            {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > \
            200000 maximum"}}""";
    private static final String ANTHROPIC_CONTEXT_LIMIT = """
            {"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed \
            context limit: 197202 + 21333 > 204698, decrease input length or `max_tokens` and try again"}}""";
    private static final String ANTHROPIC_CONTENT_FILTER = """
            {"type":"error","error":{"type":"invalid_request_error","message":"Output blocked by content filtering \
            policy"}}""";
    private static final String ANTHROPIC_EMPTY_TEXT = """
            {"type":"error","error":{"type":"invalid_request_error","message":"messages: text content blocks must be \
            non-empty"}}""";
    private static final String ANTHROPIC_MAX_TOKENS = """
            {"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 300000 > 64000, which is the \
            maximum allowed number of output tokens for claude-sonnet-4-20250514"}}""";
    private static final String ANTHROPIC_CACHE_BLOCKS = """
            {"type":"error","error":{"type":"invalid_request_error","message":"A maximum of 4 blocks with \
            cache_control may be provided. Found 5."}}""";
    private static final String ANTHROPIC_TOO_LARGE = """
            {"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number \
            of bytes."}}""";
    private static final String ANTHROPIC_OVERLOADED = """
            {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}""";

    private static final String HTML_BAD_GATEWAY = """
            <html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>\
            <hr><center>nginx</center></body></html>""";

    // Transport.

    @Test
    void connectAndBrokenAreTransportAndTimeoutIsTimeout() {
        Failure refused = FailureClassifier.fromTransport(new UpstreamFailure(UpstreamFailure.Kind.CONNECT, "connection refused"));
        Failure broken = FailureClassifier.fromTransport(new UpstreamFailure(UpstreamFailure.Kind.BROKEN, "reset"));
        Failure late = FailureClassifier.fromTransport(new UpstreamFailure(UpstreamFailure.Kind.TIMEOUT, "timed out"));

        assertThat(refused.kind()).isEqualTo(FailureClass.TRANSPORT);
        assertThat(broken.kind()).isEqualTo(FailureClass.TRANSPORT);
        assertThat(late.kind()).isEqualTo(FailureClass.TIMEOUT);
    }

    @Test
    void transportFailureHasNoStatusNoBodyAndItsMessageAsCause() {
        Failure refused = FailureClassifier.fromTransport(new UpstreamFailure(UpstreamFailure.Kind.CONNECT, "connection refused"));

        assertThat(refused.status()).isZero();
        assertThat(refused.answered()).isFalse();
        assertThat(refused.body().length()).isZero();
        assertThat(refused.retryAfter()).isEmpty();
        assertThat(refused.cause()).isEqualTo("connection refused");
    }

    // The status table and its boundaries.

    @Test
    void tooManyRequestsIsRateLimited() {
        assertThat(kind(429, OPENAI_RATE_LIMIT)).isEqualTo(FailureClass.RATE_LIMITED);
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void unauthorisedAndForbiddenAreAuth(int status) {
        assertThat(kind(status, "{\"error\":{\"message\":\"Incorrect API key provided.\",\"code\":\"invalid_api_key\"}}"))
                .isEqualTo(FailureClass.AUTH);
    }

    @Test
    void notFoundIsNotFound() {
        assertThat(kind(404, OPENAI_MODEL_NOT_FOUND)).isEqualTo(FailureClass.NOT_FOUND);
        assertThat(kind(404, AZURE_DEPLOYMENT_NOT_FOUND)).isEqualTo(FailureClass.NOT_FOUND);
    }

    @ParameterizedTest
    @ValueSource(ints = {300, 301, 302, 307, 308, 399})
    void redirectsAreNotFound(int status) {
        assertThat(kind(status, "")).isEqualTo(FailureClass.NOT_FOUND);
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 425, 500, 502, 503, 504, 529, 599})
    void serverErrorsAndTheRetryable4xxAreServer(int status) {
        assertThat(kind(status, "")).isEqualTo(FailureClass.SERVER);
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 409, 413, 415, 422, 424, 499})
    void otherClientErrorsAreRejected(int status) {
        assertThat(kind(status, "{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\"}}"))
                .isEqualTo(FailureClass.REJECTED);
    }

    @Test
    void eachSideOfTheClassBoundaries() {
        assertThat(kind(399, "")).isEqualTo(FailureClass.NOT_FOUND);
        assertThat(kind(400, "")).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(499, "")).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(500, "")).isEqualTo(FailureClass.SERVER);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 99, 100, 200, 204, 600, 999})
    void statusesNoWorkingServerAnswersWithAreServer(int status) {
        assertThat(kind(status, "")).isEqualTo(FailureClass.SERVER);
    }

    @Test
    void statusTableIsNotOverruledByTheBody() {
        assertThat(kind(429, OPENAI_CONTEXT)).isEqualTo(FailureClass.RATE_LIMITED);
        assertThat(kind(500, AZURE_CONTENT_FILTER)).isEqualTo(FailureClass.SERVER);
        assertThat(kind(403, ANTHROPIC_CONTENT_FILTER)).isEqualTo(FailureClass.AUTH);
        assertThat(kind(404, ANTHROPIC_PROMPT_TOO_LONG)).isEqualTo(FailureClass.NOT_FOUND);
    }

    // Context window.

    @Test
    void openAiContextLengthExceededIsContextWindow() {
        assertThat(kind(400, OPENAI_CONTEXT)).isEqualTo(FailureClass.CONTEXT_WINDOW);
        assertThat(kind(400, OPENAI_RESPONSES_CONTEXT)).isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void openAiContextMessageWithoutCodeIsContextWindow() {
        String vllm = "{\"object\":\"error\",\"message\":\"This model's maximum context length is 4096 tokens. However, "
                + "you requested 5000 tokens in the messages. Please reduce the length of the messages.\","
                + "\"type\":\"BadRequestError\",\"param\":null,\"code\":400}";

        assertThat(kind(400, vllm)).isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void azureContextLengthExceededIsContextWindowWhateverThe4xx() {
        assertThat(kind(400, AZURE_CONTEXT)).isEqualTo(FailureClass.CONTEXT_WINDOW);
        assertThat(kind(413, AZURE_CONTEXT)).isEqualTo(FailureClass.CONTEXT_WINDOW);
        assertThat(kind(422, AZURE_CONTEXT)).isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void anthropicPromptTooLongIsContextWindow() {
        assertThat(kind(400, ANTHROPIC_PROMPT_TOO_LONG)).isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void anthropicInputPlusMaxTokensOverTheLimitIsContextWindow() {
        assertThat(kind(400, ANTHROPIC_CONTEXT_LIMIT)).isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void fastApiDetailSayingContextIsContextWindow() {
        assertThat(kind(400, "{\"detail\":\"This model's maximum context length is 2048 tokens.\"}"))
                .isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void contextMessageInPlainTextIsContextWindow() {
        assertThat(kind(400, "Bad Request: prompt is too long: 9000 tokens > 8192 maximum"))
                .isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void litellmProxyUpstreamKeepsTheContextWindowClass() {
        String litellm = "{\"error\":{\"message\":\"litellm.ContextWindowExceededError: litellm.BadRequestError: "
                + "AzureException - Too many tokens\",\"type\":null,\"param\":null,\"code\":\"400\"}}";

        assertThat(kind(400, litellm)).isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    // Content policy.

    @Test
    void openAiContentPolicyViolationIsContentPolicy() {
        assertThat(kind(400, OPENAI_IMAGE_POLICY)).isEqualTo(FailureClass.CONTENT_POLICY);
    }

    @Test
    void openAiFlaggedPromptIsContentPolicy() {
        assertThat(kind(400, OPENAI_INVALID_PROMPT)).isEqualTo(FailureClass.CONTENT_POLICY);
    }

    @Test
    void azureContentFilterIsContentPolicy() {
        assertThat(kind(400, AZURE_CONTENT_FILTER)).isEqualTo(FailureClass.CONTENT_POLICY);
    }

    @Test
    void azureResponsibleAiInnerErrorAloneIsContentPolicy() {
        assertThat(kind(400, AZURE_INNER_ONLY)).isEqualTo(FailureClass.CONTENT_POLICY);
    }

    @Test
    void azureContentManagementMessageAloneIsContentPolicy() {
        String azure = "{\"error\":{\"message\":\"The response was filtered due to the prompt triggering Azure OpenAI's "
                + "content management policy. Please modify your prompt and retry.\",\"type\":null,\"code\":null}}";

        assertThat(kind(400, azure)).isEqualTo(FailureClass.CONTENT_POLICY);
    }

    @Test
    void anthropicContentFilteringIsContentPolicy() {
        assertThat(kind(400, ANTHROPIC_CONTENT_FILTER)).isEqualTo(FailureClass.CONTENT_POLICY);
    }

    @Test
    void contentPolicyInPlainTextIsContentPolicy() {
        assertThat(kind(400, "Error: ResponsibleAIPolicyViolation")).isEqualTo(FailureClass.CONTENT_POLICY);
    }

    // No false positives.

    @Test
    void ordinaryOpenAiBadRequestsAreRejected() {
        assertThat(kind(400, OPENAI_TEMPERATURE)).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, OPENAI_MAX_TOKENS)).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, OPENAI_STRING_TOO_LONG)).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, OPENAI_UNKNOWN_ARGUMENT)).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, OPENAI_PROMPT_TYPE)).isEqualTo(FailureClass.REJECTED);
    }

    @Test
    void ordinaryAnthropicBadRequestsAreRejected() {
        assertThat(kind(400, ANTHROPIC_EMPTY_TEXT)).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, ANTHROPIC_MAX_TOKENS)).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, ANTHROPIC_CACHE_BLOCKS)).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(413, ANTHROPIC_TOO_LARGE)).isEqualTo(FailureClass.REJECTED);
    }

    @Test
    void rateLimitWordingInA400IsStillRejected() {
        assertThat(kind(400, OPENAI_RATE_LIMIT)).isEqualTo(FailureClass.REJECTED);
    }

    @Test
    void promptEchoedInAValidationErrorDoesNotSteerTheClass() {
        String fastApi = "{\"detail\":[{\"type\":\"missing\",\"loc\":[\"body\",\"model\"],\"msg\":\"Field required\","
                + "\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"say: prompt is too long, "
                + "content_policy_violation, Azure OpenAI's content management policy\"}]}}]}";

        assertThat(kind(422, fastApi)).isEqualTo(FailureClass.REJECTED);
    }

    @Test
    void fastApiValidationMessageIsRead() {
        String fastApi = "{\"detail\":[{\"type\":\"value_error\",\"loc\":[\"body\"],"
                + "\"msg\":\"Value error, prompt is too long: 5000 tokens > 4096 maximum\",\"input\":null}]}";

        assertThat(kind(422, fastApi)).isEqualTo(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void htmlAndEmptyAndTruncatedBodiesAreClassifiedByStatus() {
        assertThat(kind(400, "<html><body><h1>400 Bad Request</h1></body></html>")).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(502, HTML_BAD_GATEWAY)).isEqualTo(FailureClass.SERVER);
        assertThat(kind(400, "")).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, "{\"error\":{\"message\":\"Invalid value for")).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, "null")).isEqualTo(FailureClass.REJECTED);
        assertThat(kind(400, "[1,2]")).isEqualTo(FailureClass.REJECTED);
    }

    @Test
    void anthropicOverloadedIsServer() {
        assertThat(kind(529, ANTHROPIC_OVERLOADED)).isEqualTo(FailureClass.SERVER);
    }

    // What the failure keeps.

    @Test
    void answerKeepsStatusAndBodyAndNoCause() {
        Failure failure = FailureClassifier.fromAnswer(400, Buffer.buffer(ANTHROPIC_PROMPT_TOO_LONG), MultiMap.caseInsensitiveMultiMap(), NOW);

        assertThat(failure.status()).isEqualTo(400);
        assertThat(failure.answered()).isTrue();
        assertThat(failure.body().toString()).isEqualTo(ANTHROPIC_PROMPT_TOO_LONG);
        assertThat(failure.retryAfter()).isEmpty();
        assertThat(failure.cause()).isEmpty();
    }

    @Test
    void hugeBodyIsBoundedAndOnlyItsKeptPartIsRead() {
        String tail = "{\"error\":{\"code\":\"context_length_exceeded\"}}";
        Buffer huge = Buffer.buffer("x".repeat(Failure.MAX_BODY_BYTES) + " prompt is too long " + tail);

        Failure failure = FailureClassifier.fromAnswer(400, huge, MultiMap.caseInsensitiveMultiMap(), NOW);

        assertThat(failure.body().length()).isEqualTo(Failure.MAX_BODY_BYTES);
        assertThat(failure.kind()).isEqualTo(FailureClass.REJECTED);
    }

    @Test
    void retryAfterHeadersAreRead() {
        MultiMap seconds = MultiMap.caseInsensitiveMultiMap().add("Retry-After", "7");
        MultiMap both = MultiMap.caseInsensitiveMultiMap().add("Retry-After", "7").add("retry-after-ms", "250");
        MultiMap date = MultiMap.caseInsensitiveMultiMap().add("retry-after", "Sun, 01 Jun 2025 12:00:30 GMT");

        assertThat(retryAfter(429, seconds)).contains(Duration.ofSeconds(7));
        assertThat(retryAfter(429, both)).contains(Duration.ofMillis(250));
        assertThat(retryAfter(503, date)).contains(Duration.ofSeconds(30));
        assertThat(retryAfter(429, MultiMap.caseInsensitiveMultiMap().add("Retry-After", "soon"))).isEmpty();
    }

    private static FailureClass kind(int status, String body) {
        return FailureClassifier.fromAnswer(status, Buffer.buffer(body), MultiMap.caseInsensitiveMultiMap(), NOW).kind();
    }

    private static Optional<Duration> retryAfter(int status, MultiMap headers) {
        return FailureClassifier.fromAnswer(status, Buffer.buffer(OPENAI_RATE_LIMIT), headers, NOW).retryAfter();
    }
}
