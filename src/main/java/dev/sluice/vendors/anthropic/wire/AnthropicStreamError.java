package dev.sluice.vendors.anthropic.wire;

/**
 * Anthropic ended a stream with an {@code error} event, e.g.
 * {@code {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}}: the
 * error it would have answered with had the stream not begun.
 */
public final class AnthropicStreamError extends RuntimeException {
    private final String errorType;
    private final byte[] payload;

    AnthropicStreamError(String errorType, String message, byte[] payload) {
        super(errorType + ": " + message, null, false, false);
        this.errorType = errorType;
        this.payload = payload.clone();
    }

    /** Anthropic's {@code error.type}, e.g. {@code overloaded_error}. */
    public String errorType() {
        return errorType;
    }

    /** The HTTP status Anthropic gives the same error as an answer. */
    public int status() {
        return AnthropicErrors.status(errorType);
    }

    /** The event's data, an error body as Anthropic answers it. */
    public byte[] payload() {
        return payload.clone();
    }
}
