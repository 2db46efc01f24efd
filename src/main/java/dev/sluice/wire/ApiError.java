package dev.sluice.wire;

import java.util.Map;

/**
 * An error answered in OpenAI's shape {@code {"error":{"message","type","param","code"}}}.
 * Thrown by request parsing and checks; the server turns it into the response.
 *
 * @param status HTTP status of the answer
 * @param type   OpenAI's error type, e.g. {@code invalid_request_error}
 * @param param  the request field at fault, or null
 * @param code   a stable machine-readable code, or null
 */
public final class ApiError extends RuntimeException {
    private final int status;
    private final String type;
    private final String param;
    private final String code;
    private final Map<String, String> headers;

    public ApiError(int status, String type, String message, String param, String code) {
        this(status, type, message, param, code, Map.of());
    }

    private ApiError(int status, String type, String message, String param, String code, Map<String, String> headers) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
        this.headers = Map.copyOf(headers);
    }

    /** The same error, answered with these headers too (a 429's {@code Retry-After} and {@code x-ratelimit-*}). */
    public ApiError withHeaders(Map<String, String> headers) {
        return new ApiError(status, type, getMessage(), param, code, headers);
    }

    public static ApiError invalidRequest(String message, String param, String code) {
        return new ApiError(400, "invalid_request_error", message, param, code);
    }

    public static ApiError unauthorized(String message) {
        return new ApiError(401, "authentication_error", message, null, "invalid_api_key");
    }

    public static ApiError notFound(String message, String code) {
        return new ApiError(404, "invalid_request_error", message, null, code);
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String param() {
        return param;
    }

    public String code() {
        return code;
    }

    /** Headers the answer carries besides the body's. */
    public Map<String, String> headers() {
        return headers;
    }
}
