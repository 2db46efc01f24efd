package dev.sluice.vendors.gemini.mock;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockError;
import dev.sluice.vendors.mock.MockJson;
import dev.sluice.vendors.mock.MockOptions;
import io.vertx.core.buffer.Buffer;

/**
 * The Gemini mock's errors in Google's shape, {@code {"error":{"code","message","status"}}},
 * worded as Google AI Studio and Vertex AI word them, each message starting with
 * {@code [name]}. A rate limit carries its wait as a {@code google.rpc.RetryInfo} detail, as
 * Google sends it, rather than a {@code Retry-After} header.
 */
final class GeminiMockErrors {
    private final String prefix;
    private final MockOptions options;

    GeminiMockErrors(MockOptions options) {
        this.prefix = "[" + options.name() + "] ";
        this.options = options;
    }

    MockError internal() {
        return error(500, "INTERNAL", "An internal error has occurred. Please retry or report in"
                + " https://developers.generativeai.google/guide/troubleshooting");
    }

    MockError rateLimited() {
        ObjectNode body = body(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and"
                + " billing details. Please retry in " + options.retryAfterSeconds() + "s.");
        ArrayNode details = ((ObjectNode) body.get("error")).putArray("details");
        details.addObject().put("@type", "type.googleapis.com/google.rpc.QuotaFailure").putArray("violations").addObject()
                .put("quotaMetric", "generativelanguage.googleapis.com/generate_content_free_tier_requests")
                .put("quotaId", "GenerateRequestsPerMinutePerProjectPerModel-FreeTier");
        details.addObject().put("@type", "type.googleapis.com/google.rpc.RetryInfo")
                .put("retryDelay", options.retryAfterSeconds() + "s");
        return new MockError(429, buffer(body));
    }

    /** No credentials at all is a 403; credentials that are not the mock's key a 401. */
    MockError unauthenticated(boolean anyCredentials) {
        return anyCredentials
                ? error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access"
                        + " token, login cookie or other valid authentication credential.")
                : error(403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers (callers without established"
                        + " identity). Please use API Key or other form of API consumer identity to call this API.");
    }

    MockError modelNotFound(String model, String method) {
        return error(404, "NOT_FOUND", "models/" + model + " is not found for API version v1beta, or is not supported for "
                + method + ". Call ListModels to see the list of available models and their supported methods.");
    }

    MockError invalidArgument() {
        return error(400, "INVALID_ARGUMENT", "Request contains an invalid argument.");
    }

    MockError tokenLimit(int promptTokens, int limitTokens) {
        return error(400, "INVALID_ARGUMENT", "The input token count (" + promptTokens + ") exceeds the maximum number of"
                + " tokens allowed (" + limitTokens + ").");
    }

    MockError badJson() {
        return error(400, "INVALID_ARGUMENT", "Invalid JSON payload received. Expected an object.");
    }

    MockError unknownRoute(String method, String path) {
        return error(404, "NOT_FOUND", "The requested URL " + method + " " + path + " was not found on this server.");
    }

    private MockError error(int code, String status, String message) {
        return new MockError(code, buffer(body(code, status, message)));
    }

    private ObjectNode body(int code, String status, String message) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("error").put("code", code).put("message", prefix + message).put("status", status);
        return body;
    }

    static Buffer buffer(ObjectNode node) {
        return MockJson.buffer(json -> json.writeTree(node));
    }
}
