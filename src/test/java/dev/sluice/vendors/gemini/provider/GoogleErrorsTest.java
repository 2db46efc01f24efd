package dev.sluice.vendors.gemini.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.vendors.gemini.wire.GeminiBlocked;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Google's error bodies classified and shaped like OpenAI's. */
class GoogleErrorsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static Buffer error(int code, String status, String message, String details) {
        return Buffer.buffer("{\"error\": {\"code\": " + code + ", \"message\": \"" + message + "\", \"status\": \"" + status + "\""
                + (details.isEmpty() ? "" : ", \"details\": " + details) + "}}");
    }

    private static Failure classify(int status, Buffer body) {
        return GoogleErrors.classify(status, body, MultiMap.caseInsensitiveMultiMap(), NOW);
    }

    @Test
    void aRateLimitWaitsForItsRetryInfo() {
        Failure failure = classify(429, error(429, "RESOURCE_EXHAUSTED", "quota", """
                [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": []},
                 {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37.5s"}]"""));
        assertThat(failure.kind()).isEqualTo(FailureClass.RATE_LIMITED);
        assertThat(failure.retryAfter()).contains(Duration.ofMillis(37_500));
    }

    @Test
    void aRetryAfterHeaderWinsOverRetryInfo() {
        Failure failure = GoogleErrors.classify(429, error(429, "RESOURCE_EXHAUSTED", "quota",
                "[{\"@type\": \"type.googleapis.com/google.rpc.RetryInfo\", \"retryDelay\": \"37s\"}]"),
                MultiMap.caseInsensitiveMultiMap().add("Retry-After", "2"), NOW);
        assertThat(failure.retryAfter()).contains(Duration.ofSeconds(2));
    }

    @ParameterizedTest
    @CsvSource({"500, INTERNAL, SERVER", "503, UNAVAILABLE, SERVER", "401, UNAUTHENTICATED, AUTH",
            "403, PERMISSION_DENIED, AUTH", "404, NOT_FOUND, NOT_FOUND", "400, INVALID_ARGUMENT, REJECTED"})
    void statusesAreClassifiedAsForEveryUpstream(int code, String status, FailureClass kind) {
        assertThat(classify(code, error(code, status, "something", "")).kind()).isEqualTo(kind);
    }

    @Test
    void anInvalidKeyAnsweredWith400IsAnAuthFailure() {
        Buffer body = error(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", """
                [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                  "domain": "googleapis.com"}]""");
        assertThat(classify(400, body).kind()).isEqualTo(FailureClass.AUTH);
    }

    @Test
    void aTokenLimitRefusalIsAContextWindowFailureAndCodedLikeOpenAis() {
        Buffer body = error(400, "INVALID_ARGUMENT",
                "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", "");
        assertThat(classify(400, body).kind()).isEqualTo(FailureClass.CONTEXT_WINDOW);
        ObjectNode shaped = GoogleErrors.normalise(400, body);
        assertThat(shaped.at("/error/code").asText()).isEqualTo("context_length_exceeded");
        assertThat(shaped.at("/error/type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void googlesMessageAndStatusWordReachTheCallerInOpenAisShape() {
        ObjectNode shaped = GoogleErrors.normalise(429, error(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota", ""));
        assertThat(shaped.at("/error/message").asText()).isEqualTo("You exceeded your current quota");
        assertThat(shaped.at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(shaped.at("/error/code").asText()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(shaped.at("/error/param").isNull()).isTrue();
        assertThat(shaped.at("/error/upstream_status").asInt()).isEqualTo(429);
    }

    @Test
    void anOpenAiShapedRefusalAndPlainTextAreReadToo() {
        assertThat(GoogleErrors.normalise(400, Buffer.buffer(
                "{\"error\": {\"message\": \"Gemini does not support logit_bias\", \"type\": \"invalid_request_error\","
                        + " \"param\": \"logit_bias\", \"code\": \"unsupported_params\"}}")).at("/error/param").asText())
                .isEqualTo("logit_bias");
        assertThat(GoogleErrors.normalise(502, Buffer.buffer("<html>Bad Gateway</html>")).at("/error/message").asText())
                .contains("Bad Gateway");
    }

    @Test
    void aBlockedPromptIsAContentPolicyFailureWithAnOpenAiShaped400() {
        Failure failure = GoogleErrors.blocked(new GeminiBlocked("SAFETY", "Gemini blocked the prompt: blockReason SAFETY"));
        assertThat(failure.kind()).isEqualTo(FailureClass.CONTENT_POLICY);
        assertThat(failure.status()).isEqualTo(400);
        assertThat(GoogleErrors.normalise(400, failure.body()).at("/error/code").asText()).isEqualTo("content_policy_violation");
    }
}
