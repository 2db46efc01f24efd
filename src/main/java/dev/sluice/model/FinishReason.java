package dev.sluice.model;

/**
 * Why the model stopped writing. The four reasons every vendor shares have a {@link Kind};
 * any other word a vendor sends is kept as it came, under {@link Kind#OTHER}.
 *
 * @param kind         the shared reason
 * @param vendorReason the vendor's own word when {@code kind} is {@link Kind#OTHER}, else null
 */
public record FinishReason(Kind kind, String vendorReason) {
    public static final FinishReason STOP = new FinishReason(Kind.STOP, null);
    public static final FinishReason LENGTH = new FinishReason(Kind.LENGTH, null);
    public static final FinishReason TOOL_CALLS = new FinishReason(Kind.TOOL_CALLS, null);
    public static final FinishReason CONTENT_FILTER = new FinishReason(Kind.CONTENT_FILTER, null);

    public enum Kind {
        /** A natural end or a stop sequence: OpenAI's {@code stop}, Anthropic's {@code end_turn} and {@code stop_sequence}. */
        STOP,
        /** The token limit: OpenAI's {@code length}, Anthropic's {@code max_tokens}. */
        LENGTH,
        /** The model wants tools run: OpenAI's {@code tool_calls}, Anthropic's {@code tool_use}. */
        TOOL_CALLS,
        /** The vendor's safety filter cut the answer: OpenAI's {@code content_filter}, Anthropic's {@code refusal}. */
        CONTENT_FILTER,
        /** A reason none of the above covers; see {@link FinishReason#vendorReason()}. */
        OTHER
    }

    public FinishReason {
        Checks.present(kind, "kind");
        if (kind == Kind.OTHER) {
            Checks.notBlank(vendorReason, "vendorReason");
        } else if (vendorReason != null) {
            throw new IllegalArgumentException("vendorReason: " + vendorReason + " (expected: none unless kind is OTHER)");
        }
    }

    /** A reason only the vendor knows, kept word for word. */
    public static FinishReason other(String vendorReason) {
        return new FinishReason(Kind.OTHER, vendorReason);
    }
}
