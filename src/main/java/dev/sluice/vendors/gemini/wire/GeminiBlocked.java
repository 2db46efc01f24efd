package dev.sluice.vendors.gemini.wire;

/**
 * Gemini refused to answer: the prompt was blocked ({@code promptFeedback.blockReason} and no
 * candidates) or the only candidate was withheld for safety before it said anything. This is a
 * content-policy refusal, not an empty answer.
 */
public final class GeminiBlocked extends RuntimeException {
    private final String reason;

    /** @param reason Gemini's word for it, e.g. {@code SAFETY} or {@code PROHIBITED_CONTENT} */
    public GeminiBlocked(String reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
