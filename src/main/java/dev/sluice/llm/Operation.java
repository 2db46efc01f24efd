package dev.sluice.llm;

/** The model-calling operations Sluice routes, with the path each has on an OpenAI-style API. */
public enum Operation {
    CHAT_COMPLETIONS("/chat/completions", true),
    COMPLETIONS("/completions", true),
    EMBEDDINGS("/embeddings", false),
    /** OpenAI's Responses API, to a deployment that serves it; any other is called with chat completions. */
    RESPONSES("/responses", true);

    private final String path;
    private final boolean streamable;

    Operation(String path, boolean streamable) {
        this.path = path;
        this.streamable = streamable;
    }

    /** The path below an OpenAI-style base URL, e.g. {@code /chat/completions}. */
    public String path() {
        return path;
    }

    public boolean streamable() {
        return streamable;
    }
}
