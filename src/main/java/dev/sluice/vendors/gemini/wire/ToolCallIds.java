package dev.sluice.vendors.gemini.wire;

import java.util.random.RandomGenerator;

/**
 * Makes the OpenAI tool-call ids given to Gemini's function calls, which carry none of
 * their own (or one the caller cannot use to answer them).
 */
@FunctionalInterface
public interface ToolCallIds {
    /**
     * Joins a call's id and the {@code thoughtSignature} Gemini put on its part, which Gemini 3
     * wants back with the call in the next turn: the caller keeps the id, so the signature
     * travels in it, as LiteLLM carries it ({@code call_..__thought__SIGNATURE}).
     */
    String THOUGHT_SIGNATURE = "__thought__";

    /** A fresh id, e.g. {@code call_3f9a0c...}. */
    String next();

    /** Ids of 24 hex digits drawn from {@code random}, in OpenAI's {@code call_} form. */
    static ToolCallIds from(RandomGenerator random) {
        return () -> "call_" + String.format("%016x", random.nextLong()) + String.format("%08x", random.nextInt());
    }
}
