package dev.sluice.vendors.bedrock.wire;

/**
 * An exception event of a ConverseStream ({@code throttlingException}, {@code modelStreamErrorException},
 * ...): the stream ended with AWS's error instead of its answer.
 */
public final class ConverseStreamError extends RuntimeException {
    private final String exceptionName;

    /**
     * @param exceptionName AWS's name for the error, as its HTTP answer would name it ({@code ThrottlingException})
     * @param message       AWS's own words
     */
    public ConverseStreamError(String exceptionName, String message) {
        super(message, null, false, false);
        this.exceptionName = exceptionName;
    }

    public String exceptionName() {
        return exceptionName;
    }
}
