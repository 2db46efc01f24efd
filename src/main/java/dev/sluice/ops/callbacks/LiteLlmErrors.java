package dev.sluice.ops.callbacks;

import dev.sluice.failure.FailureClass;

/**
 * The exception class LiteLLM names for a failure of each class, as its
 * {@code error_information.error_class} and its loggers show it, so dashboards built on
 * LiteLLM's names read Sluice's failures the same way.
 */
public final class LiteLlmErrors {
    private LiteLlmErrors() {}

    /** LiteLLM's class for a failure of {@code kind} that the caller was answered {@code status} for. */
    public static String className(FailureClass kind, int status) {
        return switch (kind) {
            case TRANSPORT -> "APIConnectionError";
            case TIMEOUT -> "Timeout";
            case RATE_LIMITED -> "RateLimitError";
            case SERVER -> status == 503 ? "ServiceUnavailableError" : "InternalServerError";
            case AUTH -> status == 403 ? "PermissionDeniedError" : "AuthenticationError";
            case NOT_FOUND -> "NotFoundError";
            case REJECTED -> status == 422 ? "UnprocessableEntityError" : "BadRequestError";
            case CONTEXT_WINDOW -> "ContextWindowExceededError";
            case CONTENT_POLICY -> "ContentPolicyViolationError";
            case GUARDRAIL -> "GuardrailRaisedException";
        };
    }
}
