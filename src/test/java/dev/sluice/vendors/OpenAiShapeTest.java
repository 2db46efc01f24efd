package dev.sluice.vendors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

class OpenAiShapeTest {

    @Test
    void completeUsagePassesTheOriginalBytes() {
        Buffer body = Buffer.buffer("{\"id\":\"x\",\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}");

        assertThat(OpenAiShape.success(body)).containsSame(body);
    }

    @Test
    void missingTotalIsFilledIn() {
        Buffer body = Buffer.buffer("{\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}");

        assertThat(OpenAiShape.success(body).orElseThrow().toString()).contains("\"total_tokens\":5");
    }

    @Test
    void missingPromptIsDerived() {
        Buffer body = Buffer.buffer("{\"usage\":{\"completion_tokens\":2,\"total_tokens\":9}}");

        assertThat(OpenAiShape.success(body).orElseThrow().toString()).contains("\"prompt_tokens\":7");
    }

    @Test
    void nonObjectSuccessIsRefused() {
        assertThat(OpenAiShape.success(Buffer.buffer("[1]"))).isEmpty();
        assertThat(OpenAiShape.success(Buffer.buffer("<html>"))).isEmpty();
    }

    @Test
    void openAiErrorPassesWithUpstreamStatusAdded() {
        ObjectNode error = OpenAiShape.error(400, Buffer.buffer(
                "{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\",\"param\":\"x\",\"code\":\"c\"}}"));

        assertThat(error.toString()).isEqualTo(
                "{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\",\"param\":\"x\",\"code\":\"c\",\"upstream_status\":400}}");
    }

    @Test
    void fastApiDetailBecomesTheMessage() {
        ObjectNode error = OpenAiShape.error(422, Buffer.buffer("{\"detail\":\"field required\"}"));

        assertThat(error.at("/error/message").asText()).isEqualTo("field required");
        assertThat(error.at("/error/type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void emptyAndHugeBodiesAreQuotedSafely() {
        assertThat(OpenAiShape.error(502, Buffer.buffer()).at("/error/message").asText()).contains("no body");
        String huge = "x".repeat(10_000);
        assertThat(OpenAiShape.error(500, Buffer.buffer(huge)).at("/error/message").asText()).hasSize(OpenAiShape.MAX_QUOTED_CHARS + 1);
    }
}
