package dev.sluice.model;

/**
 * Who wrote a {@link Message}. Every vendor has these four speakers, plus OpenAI's
 * {@code developer}, which is kept apart so that OpenAI's chat completions and Responses APIs
 * get back the word their caller wrote.
 */
public enum Role {
    /** Instructions from the application: OpenAI's {@code system}, Anthropic's top-level {@code system}, Gemini's {@code systemInstruction}. */
    SYSTEM,
    /**
     * OpenAI's {@code developer}: the same instructions as {@link #SYSTEM}, in the name OpenAI's
     * newer models use. A vendor without the distinction reads it as {@code SYSTEM}; see
     * {@link #instructs()}.
     */
    DEVELOPER,
    /** The person or program calling the model. */
    USER,
    /** The model: text, reasoning and tool calls it produced earlier in the conversation. */
    ASSISTANT,
    /** Results of tool calls, sent back by the caller: OpenAI's {@code role: tool} messages. */
    TOOL;

    /** Whether this role gives the model its instructions ({@link #SYSTEM} or {@link #DEVELOPER}). */
    public boolean instructs() {
        return this == SYSTEM || this == DEVELOPER;
    }
}
