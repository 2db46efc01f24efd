package dev.sluice.vendors.anthropic.entry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.vendors.entry.WrittenError;
import dev.sluice.wire.ErrorBodies;
import org.junit.jupiter.api.Test;

class AnthropicErrorsTest {

    private static WrittenError of(int status, String type, String code) {
        return MessagesErrors.of(status, ErrorBodies.node("the words", type, null, code));
    }

    @Test
    void eachStatusGetsAnthropicsTypeAndTheMessageIsKept() {
        int[] statuses = {400, 401, 402, 403, 404, 408, 413, 422, 429, 500, 502, 503, 504, 529};
        String[] types = {"invalid_request_error", "authentication_error", "billing_error", "permission_error", "not_found_error",
                "timeout_error", "request_too_large", "invalid_request_error", "rate_limit_error", "api_error", "api_error",
                "overloaded_error", "timeout_error", "overloaded_error"};
        for (int i = 0; i < statuses.length; i++) {
            WrittenError error = of(statuses[i], "whatever", null);
            assertThat(error.status()).isEqualTo(statuses[i]);
            assertThat(error.body().path("type").asText()).isEqualTo("error");
            assertThat(error.body().at("/error/type").asText()).as("status " + statuses[i]).isEqualTo(types[i]);
            assertThat(error.body().at("/error/message").asText()).isEqualTo("the words");
        }
    }

    @Test
    void anUnknownModelIsNotFoundAndAModelAKeyMayNotUseIsForbidden() {
        assertThat(of(400, "invalid_request_error", "model_not_found").status()).isEqualTo(404);
        assertThat(of(400, "invalid_request_error", "model_not_found").body().at("/error/type").asText()).isEqualTo("not_found_error");
        assertThat(of(401, "key_model_access_denied", "model_access_denied").status()).isEqualTo(403);
        assertThat(of(401, "key_model_access_denied", "model_access_denied").body().at("/error/type").asText())
                .isEqualTo("permission_error");
    }

    @Test
    void anUpstreamsOwnAnthropicTypeIsKept() {
        WrittenError overloaded = of(500, "server_error", "overloaded_error");
        assertThat(overloaded.status()).isEqualTo(500);
        assertThat(overloaded.body().at("/error/type").asText()).isEqualTo("overloaded_error");
    }
}
