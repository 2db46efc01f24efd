package dev.sluice.vendors.bedrock.mock;

import dev.sluice.vendors.mock.MockJson;
import dev.sluice.vendors.mock.MockOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.UUID;

/**
 * Bedrock's errors as AWS writes them: the status, the exception's name in
 * {@code x-amzn-ErrorType} and {@code {"message"}} as the body, each message starting with
 * {@code [name]}. AWS's SDKs read the name from the header and raise the exception of that name.
 */
final class BedrockMockErrors {
    private static final String NAMESPACE = ":http://internal.amazon.com/coral/com.amazon.bedrock/";

    private final String prefix;
    private final int retryAfterSeconds;

    BedrockMockErrors(MockOptions options) {
        this.prefix = "[" + options.name() + "] ";
        this.retryAfterSeconds = options.retryAfterSeconds();
    }

    /** An error answer; a {@code ThrottlingException} carries the mock's {@code Retry-After}. */
    void send(HttpServerResponse response, int status, String name, String message) {
        response.setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .putHeader("x-amzn-RequestId", UUID.randomUUID().toString())
                .putHeader("x-amzn-ErrorType", name + NAMESPACE);
        if (name.equals("ThrottlingException")) {
            response.putHeader("Retry-After", Integer.toString(retryAfterSeconds));
        }
        response.end(body(message));
    }

    Buffer body(String message) {
        return MockJson.buffer(json -> {
            json.writeStartObject();
            json.writeStringField("message", prefix + message);
            json.writeEndObject();
        });
    }

    void internal(HttpServerResponse response) {
        send(response, 500, "InternalServerException", "The server encountered an error processing your request. Try again later.");
    }

    void throttled(HttpServerResponse response) {
        send(response, 429, "ThrottlingException", "Too many requests, please wait before trying again.");
    }

    void unrecognizedClient(HttpServerResponse response) {
        send(response, 403, "UnrecognizedClientException", "The security token included in the request is invalid.");
    }

    void missingSignature(HttpServerResponse response) {
        send(response, 403, "MissingAuthenticationTokenException", "Missing Authentication Token");
    }

    void notFound(HttpServerResponse response, String modelId) {
        send(response, 404, "ResourceNotFoundException", "Could not resolve the foundation model from the model identifier "
                + modelId + ".");
    }

    void invalid(HttpServerResponse response, String message) {
        send(response, 400, "ValidationException", message);
    }

    void tooLong(HttpServerResponse response) {
        send(response, 400, "ValidationException", "Input is too long for requested model.");
    }

    void unknownOperation(HttpServerResponse response) {
        send(response, 404, "UnknownOperationException", "The operation is not known to Bedrock Runtime.");
    }
}
