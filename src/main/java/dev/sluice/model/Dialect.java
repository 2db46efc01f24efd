package dev.sluice.model;

/**
 * A wire format for model calls. An entry API decodes callers' bodies written in one; a
 * provider adapter writes upstream bodies in one. When both are the same the caller's body
 * passes through to the upstream natively, losing nothing; otherwise it crosses the internal
 * model ({@link ChatRequest}, {@link ChatAnswer}, {@link StreamEvent}).
 */
public enum Dialect {
    /** OpenAI's chat completions, text completions and embeddings, as OpenAI-compatible servers speak them. */
    OPENAI,
    /** Anthropic's Messages API. */
    ANTHROPIC,
    /** OpenAI's Responses API, which OpenAI and Azure OpenAI serve beside chat completions. */
    OPENAI_RESPONSES
}
