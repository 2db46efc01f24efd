package dev.sluice.failure;

import java.util.List;
import java.util.Optional;

/**
 * The signs in a 4xx error body that the upstream refused the request for its size
 * ({@link FailureClass#CONTEXT_WINDOW}) or for its content ({@link FailureClass#CONTENT_POLICY}),
 * rather than for an ordinary mistake in it.
 *
 * <p>Every entry is a code or a phrase a provider is known to send for exactly that refusal,
 * lower-case; phrases are matched inside messages, codes must be equal. Generic words
 * ("token", "limit", "policy", "filter", "too long") are deliberately absent, and so is a
 * bare {@code content_filter} as a phrase: OpenAI says "Unrecognized request argument
 * supplied: content_filter" for an ordinary bad parameter.
 */
final class RefusalSignals {

    static final List<String> CONTEXT_WINDOW_CODES = List.of(
            "context_length_exceeded"); // OpenAI, Azure OpenAI

    static final List<String> CONTEXT_WINDOW_PHRASES = List.of(
            "maximum context length is", // OpenAI, Azure OpenAI, vLLM: "This model's maximum context length is 8192 tokens"
            "exceeds the context window of this model", // OpenAI Responses API
            "input tokens exceed the configured limit", // OpenAI Responses API
            "prompt is too long", // Anthropic, Bedrock: "prompt is too long: 210000 tokens > 200000 maximum"
            "exceed context limit", // Anthropic: "input length and `max_tokens` exceed context limit"
            "model's maximum context limit", // other OpenAI-compatible servers, as LiteLLM matches them
            "is longer than the model's context length", // likewise
            "exceeds the maximum number of tokens allowed", // Gemini
            "exceeds the available context size", // llama.cpp
            "`inputs` tokens + `max_new_tokens` must be", // Hugging Face TGI
            "context_length_exceeded", // the code, quoted in a proxy's text
            "contextwindowexceedederror"); // a LiteLLM proxy upstream

    static final List<String> CONTENT_POLICY_CODES = List.of(
            "content_policy_violation", // OpenAI
            "content_filter", // Azure OpenAI
            "contentfilter", // Azure OpenAI images
            "responsibleaipolicyviolation"); // Azure OpenAI error.innererror.code

    static final List<String> CONTENT_POLICY_PHRASES = List.of(
            "azure openai's content management policy", // "The response was filtered due to the prompt triggering ..."
            "content filtering policy", // Anthropic: "Output blocked by content filtering policy"
            "as a result of our safety system", // OpenAI images: "Your request was rejected as a result of our safety system"
            "as a result of the safety system",
            "potentially violating our usage policy", // OpenAI: "Invalid prompt: your prompt was flagged as ..."
            "content_policy_violation", // the codes, quoted in a proxy's text
            "responsibleaipolicyviolation",
            "contentpolicyviolationerror"); // a LiteLLM proxy upstream

    private RefusalSignals() {}

    /**
     * The refusal a body signals, or empty for an ordinary rejection. Codes are read before
     * phrases because a provider's code is precise and its prose is not.
     */
    static Optional<FailureClass> in(ErrorBody body) {
        if (body.hasCode(CONTENT_POLICY_CODES)) {
            return Optional.of(FailureClass.CONTENT_POLICY);
        }
        if (body.hasCode(CONTEXT_WINDOW_CODES)) {
            return Optional.of(FailureClass.CONTEXT_WINDOW);
        }
        if (body.mentions(CONTENT_POLICY_PHRASES)) {
            return Optional.of(FailureClass.CONTENT_POLICY);
        }
        if (body.mentions(CONTEXT_WINDOW_PHRASES)) {
            return Optional.of(FailureClass.CONTEXT_WINDOW);
        }
        return Optional.empty();
    }
}
