package dev.sluice.llm;

/** The model-calling operations Sluice routes, with the path each has on an OpenAI-style API. */
public enum Operation {
    CHAT_COMPLETIONS("/chat/completions", true),
    COMPLETIONS("/completions", true),
    EMBEDDINGS("/embeddings", false);

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
