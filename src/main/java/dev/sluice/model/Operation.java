package dev.sluice.model;

/** The model-calling operations Sluice routes, with the path each has on an OpenAI-style API. */
public enum Operation {
    CHAT_COMPLETIONS("/chat/completions", true),
    COMPLETIONS("/completions", true),
    EMBEDDINGS("/embeddings", false),
    /** OpenAI's Responses API, to a deployment that serves it; any other is called with chat completions. */
    RESPONSES("/responses", true),
    /** OpenAI's image generations: a prompt in, images (URLs or base64) out. */
    IMAGE_GENERATIONS("/images/generations", false),
    /** OpenAI's text to speech: text in, an audio file out. */
    AUDIO_SPEECH("/audio/speech", false),
    /** OpenAI's speech to text: a multipart form with an audio file in, its text out. */
    AUDIO_TRANSCRIPTIONS("/audio/transcriptions", false),
    /** OpenAI's speech to English text: as transcriptions, translated. */
    AUDIO_TRANSLATIONS("/audio/translations", false),
    /** OpenAI's moderations: text in, whether it breaks a content policy out. */
    MODERATIONS("/moderations", false),
    /** Cohere's rerank, as LiteLLM proxies it: a query and documents in, their relevance out. */
    RERANK("/rerank", false);

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

    /** Whether the caller sends this call as a multipart form (an audio file), not as JSON. */
    public boolean takesForm() {
        return this == AUDIO_TRANSCRIPTIONS || this == AUDIO_TRANSLATIONS;
    }

    /**
     * Whether a 2xx answer may be other than JSON and then reaches the caller as the upstream
     * wrote it: speech's audio, a transcription asked as {@code text}, {@code srt} or {@code vtt}.
     */
    public boolean answersMedia() {
        return this == AUDIO_SPEECH || takesForm();
    }

    /** Whether this is one of the chat-like calls every provider adapter serves, not one only some vendors' APIs have. */
    public boolean everyVendorServes() {
        return this == CHAT_COMPLETIONS || this == COMPLETIONS || this == EMBEDDINGS || this == RESPONSES;
    }
}
