package dev.sluice.vendors.mock;

import io.vertx.core.buffer.Buffer;
import java.util.OptionalInt;

/**
 * Builds the mock's errors in OpenAI's shape {@code {"error":{"message","type","param","code"}}},
 * each message starting with {@code [name]}. Wording follows what OpenAI and Azure OpenAI
 * really send, so a gateway's classifier sees the same text it will see in production.
 * Errors that depend only on the options are built once.
 */
final class MockErrors {

    private static final String INVALID_REQUEST = "invalid_request_error";

    private final String prefix;
    private final MockError internal;
    private final StandingErrors standing;
    private final MockError contentFilter;

    MockErrors(MockOptions options) {
        this.prefix = "[" + options.name() + "] ";
        this.internal = error(500, "internal error", "server_error", null, null);
        int retryAfter = options.retryAfterSeconds();
        this.standing = new StandingErrors(
                new MockError(429, body("Rate limit reached for requests. Please try again in " + retryAfter + "s.",
                        "rate_limit_error", null, "rate_limit_exceeded"), OptionalInt.of(retryAfter)),
                error(401, "Incorrect API key provided.", INVALID_REQUEST, null, "invalid_api_key"),
                error(400, "invalid parameter", INVALID_REQUEST, null, null),
                error(400, "We could not parse the JSON body of your request. The body must be a JSON object.",
                        INVALID_REQUEST, null, null));
        this.contentFilter = error(400, "The response was filtered due to the prompt triggering"
                + " Azure OpenAI's content management policy. Please modify your prompt and retry.",
                INVALID_REQUEST, "prompt", "content_filter");
    }

    MockError internal() {
        return internal;
    }

    StandingErrors standing() {
        return standing;
    }

    MockError contentFilter() {
        return contentFilter;
    }

    MockError modelNotFound(String model) {
        return error(404, "The model '" + model + "' does not exist or you do not have access to it.",
                INVALID_REQUEST, "model", "model_not_found");
    }

    MockError contextLengthExceeded(int limitTokens, int promptTokens) {
        return error(400, "This model's maximum context length is " + limitTokens + " tokens."
                        + " However, your messages resulted in " + promptTokens + " tokens."
                        + " Please reduce the length of the messages.",
                INVALID_REQUEST, "messages", "context_length_exceeded");
    }

    /** A Responses call naming a {@code previous_response_id} the mock did not create, or did not store. */
    MockError previousResponseNotFound(String id) {
        return error(400, "Previous response with id '" + id + "' not found.",
                INVALID_REQUEST, "previous_response_id", "previous_response_not_found");
    }

    /** A field of the wrong JSON type, e.g. {@code param} {@code input[2]}, {@code expected} "an input item object". */
    MockError invalidType(String param, String expected) {
        return error(400, "Invalid type for '" + param + "': expected " + expected + ".",
                INVALID_REQUEST, param, "invalid_type");
    }

    MockError unknownRoute(String method, String path) {
        return error(404, "Invalid URL (" + method + " " + path + ")", INVALID_REQUEST, null, null);
    }

    private MockError error(int status, String message, String type, String param, String code) {
        return new MockError(status, body(message, type, param, code));
    }

    private Buffer body(String message, String type, String param, String code) {
        return MockJson.buffer(json -> {
            json.writeStartObject();
            json.writeObjectFieldStart("error");
            json.writeStringField("message", prefix + message);
            json.writeStringField("type", type);
            json.writeStringField("param", param);
            json.writeStringField("code", code);
            json.writeEndObject();
            json.writeEndObject();
        });
    }
}
