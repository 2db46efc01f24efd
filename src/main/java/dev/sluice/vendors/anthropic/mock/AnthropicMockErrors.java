package dev.sluice.vendors.anthropic.mock;

import dev.sluice.vendors.mock.MockError;
import dev.sluice.vendors.mock.MockJson;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.StandingErrors;
import io.vertx.core.buffer.Buffer;
import java.util.OptionalInt;

/**
 * The Anthropic mock's errors, in Anthropic's shape
 * {@code {"type":"error","error":{"type","message"}}} with the status Anthropic's API
 * reference gives each type, each message starting with {@code [name]}. The wording follows
 * what Anthropic sends, so a gateway's classifier sees the text it will see in production.
 */
final class AnthropicMockErrors {

    private final String prefix;
    private final MockError overloaded;
    private final StandingErrors standing;

    AnthropicMockErrors(MockOptions options) {
        this.prefix = "[" + options.name() + "] ";
        this.overloaded = error(529, "overloaded_error", "Overloaded");
        int retryAfter = options.retryAfterSeconds();
        this.standing = new StandingErrors(
                new MockError(429, body("rate_limit_error", "This request would exceed the rate limit for your organization of"
                        + " 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits."),
                        OptionalInt.of(retryAfter)),
                error(401, "authentication_error", "invalid x-api-key"),
                error(400, "invalid_request_error", "temperature: Input should be less than or equal to 1"),
                error(400, "invalid_request_error", "There was an error parsing the body of your request."
                        + " The body must be a JSON object."));
    }

    /** {@code fail}: Anthropic's most common server failure, 529. */
    MockError overloaded() {
        return overloaded;
    }

    StandingErrors standing() {
        return standing;
    }

    MockError missingField(String field) {
        return error(400, "invalid_request_error", field + ": Field required");
    }

    MockError modelNotFound(String model) {
        return error(404, "not_found_error", "model: " + model);
    }

    MockError promptTooLong(int promptTokens, int limitTokens) {
        return error(400, "invalid_request_error", "prompt is too long: " + promptTokens + " tokens > " + limitTokens + " maximum");
    }

    MockError unknownRoute() {
        return error(404, "not_found_error", "Not Found");
    }

    private MockError error(int status, String type, String message) {
        return new MockError(status, body(type, message));
    }

    private Buffer body(String type, String message) {
        return MockJson.buffer(json -> {
            json.writeStartObject();
            json.writeStringField("type", "error");
            json.writeObjectFieldStart("error");
            json.writeStringField("type", type);
            json.writeStringField("message", prefix + message);
            json.writeEndObject();
            json.writeEndObject();
        });
    }
}
