package dev.sluice.vendors.bedrock.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UpstreamErrors;
import dev.sluice.vendors.bedrock.wire.BedrockErrors;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * Bedrock's errors in the failure taxonomy and in OpenAI's error shape. AWS names the error in
 * the {@code x-amzn-ErrorType} header (a stream's exception frame in {@code :exception-type})
 * and writes only {@code {"message"}} in the body; the name is kept in the failure's body as
 * {@code __type}, as AWS's JSON protocols write it, so the caller's error can carry it as its
 * code. The table:
 *
 * <ul>
 *   <li>{@code ThrottlingException}, {@code ServiceQuotaExceededException}: rate_limited;
 *   <li>{@code ServiceUnavailableException}, {@code ModelNotReadyException}, {@code InternalServerException},
 *       {@code ModelStreamErrorException}, {@code ModelTimeoutException}, {@code ModelErrorException}: server;
 *   <li>{@code ValidationException} saying the input is too long: context_window; any other: rejected;
 *   <li>{@code AccessDeniedException}, {@code UnrecognizedClientException}, {@code InvalidSignatureException},
 *       {@code ExpiredTokenException}, {@code IncompleteSignatureException}, {@code MissingAuthenticationTokenException}: auth;
 *   <li>{@code ResourceNotFoundException}: not_found;
 *   <li>any other name, or none: by the HTTP status, as for any upstream.
 * </ul>
 */
final class BedrockFailures {
    static final String ERROR_TYPE_HEADER = "x-amzn-ErrorType";

    /** Bedrock's errors as its adapter names them. */
    static final UpstreamErrors ERRORS = new UpstreamErrors(BedrockFailures::classify, BedrockFailures::normalise);

    private BedrockFailures() {}

    static Failure classify(int status, Buffer body, MultiMap headers, Instant now) {
        Failure byStatus = FailureClassifier.fromAnswer(status, body, headers, now);
        JsonNode root = parse(body);
        String header = headers.get(ERROR_TYPE_HEADER);
        String name = header != null ? BedrockErrors.exceptionName(header) : BedrockErrors.exceptionName(root.path("__type").asText(""));
        if (name.isEmpty()) {
            return byStatus;
        }
        String message = message(root);
        FailureClass kind = classOf(name, message).orElse(byStatus.kind());
        return new Failure(kind, status, named(root, name, message), byStatus.retryAfter(), "", byStatus.headers());
    }

    /** A stream's exception frame, classified as its HTTP answer would be, with the status AWS gives that error. */
    static Failure ofStreamException(String name, String message) {
        int status = statusOf(name);
        FailureClass kind = classOf(name, message).orElse(FailureClass.SERVER);
        return new Failure(kind, status, named(JsonNodeFactory.instance.objectNode(), name, message), Optional.empty(),
                name + ": " + message);
    }

    /** An error answer in OpenAI's shape: AWS's message, the exception's name as the code. */
    static ObjectNode normalise(int status, Buffer body) {
        JsonNode root = parse(body);
        if (root.path("error").isObject() || !root.has("message") && !root.has("Message")) {
            return OpenAiShape.error(status, body);
        }
        String name = root.path("__type").asText(null);
        ObjectNode shaped = ErrorBodies.node(message(root), OpenAiShape.typeFor(status), null,
                name == null || name.isEmpty() ? null : BedrockErrors.exceptionName(name));
        ((ObjectNode) shaped.get("error")).put("upstream_status", status);
        return shaped;
    }

    private static Optional<FailureClass> classOf(String name, String message) {
        return Optional.ofNullable(switch (name) {
            case "ThrottlingException", "ServiceQuotaExceededException" -> FailureClass.RATE_LIMITED;
            case "ServiceUnavailableException", "ModelNotReadyException", "InternalServerException",
                    "ModelStreamErrorException", "ModelTimeoutException", "ModelErrorException", "InternalFailure" ->
                    FailureClass.SERVER;
            case "ValidationException" -> BedrockErrors.saysTooLong(message) ? FailureClass.CONTEXT_WINDOW : FailureClass.REJECTED;
            case "AccessDeniedException", "UnrecognizedClientException", "InvalidSignatureException", "ExpiredTokenException",
                    "IncompleteSignatureException", "MissingAuthenticationTokenException" -> FailureClass.AUTH;
            case "ResourceNotFoundException" -> FailureClass.NOT_FOUND;
            default -> null;
        });
    }

    private static int statusOf(String name) {
        return switch (name) {
            case "ThrottlingException" -> 429;
            case "ServiceUnavailableException" -> 503;
            case "ValidationException" -> 400;
            case "ModelStreamErrorException" -> 424;
            case "ModelTimeoutException" -> 408;
            case "AccessDeniedException" -> 403;
            case "ResourceNotFoundException" -> 404;
            default -> 500;
        };
    }

    private static Buffer named(JsonNode root, String name, String message) {
        ObjectNode body = root.isObject() ? ((ObjectNode) root).deepCopy() : JsonNodeFactory.instance.objectNode();
        body.put("message", message);
        body.put("__type", name);
        return Json.buffer(body);
    }

    private static String message(JsonNode root) {
        for (String field : new String[] {"message", "Message"}) {
            if (root.path(field).isTextual() && !root.path(field).textValue().isBlank()) {
                return root.path(field).textValue();
            }
        }
        return "Bedrock answered with an error and no message.";
    }

    private static JsonNode parse(Buffer body) {
        try {
            return body.length() == 0 ? JsonNodeFactory.instance.objectNode() : Json.parse(body.getBytes());
        } catch (IOException notJson) {
            return JsonNodeFactory.instance.objectNode();
        }
    }
}
