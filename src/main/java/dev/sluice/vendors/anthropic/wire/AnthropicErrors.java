package dev.sluice.vendors.anthropic.wire;

/** Anthropic's error types and the HTTP status each comes with, from its API reference's errors page. */
public final class AnthropicErrors {
    private AnthropicErrors() {}

    /** The status of {@code errorType}; an unknown type is a server error. */
    public static int status(String errorType) {
        return switch (errorType) {
            case "invalid_request_error" -> 400;
            case "authentication_error" -> 401;
            case "billing_error" -> 402;
            case "permission_error" -> 403;
            case "not_found_error" -> 404;
            case "request_too_large" -> 413;
            case "rate_limit_error" -> 429;
            case "timeout_error" -> 504;
            case "overloaded_error" -> 529;
            default -> 500; // api_error and anything newer
        };
    }

    /** The error type Anthropic answers {@code status} with. */
    public static String type(int status) {
        return switch (status) {
            case 400 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 402 -> "billing_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 504 -> "timeout_error";
            case 529 -> "overloaded_error";
            default -> "api_error";
        };
    }
}
