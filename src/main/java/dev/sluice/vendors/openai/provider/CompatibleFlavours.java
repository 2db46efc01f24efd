package dev.sluice.vendors.openai.provider;

import java.util.List;
import java.util.Optional;

/** The OpenAI-compatible prefixes Sluice accepts and their defaults. */
public final class CompatibleFlavours {
    private CompatibleFlavours() {}

    public static final List<CompatibleFlavour> ALL = List.of(
            new CompatibleFlavour("openai", Optional.of("https://api.openai.com/v1"), "OPENAI_API_KEY", false),
            new CompatibleFlavour("text-completion-openai", Optional.of("https://api.openai.com/v1"), "OPENAI_API_KEY", false),
            new CompatibleFlavour("openai_compatible", Optional.empty(), null, false),
            new CompatibleFlavour("openai_like", Optional.empty(), null, false),
            new CompatibleFlavour("hosted_vllm", Optional.empty(), "HOSTED_VLLM_API_KEY", false),
            new CompatibleFlavour("vllm", Optional.empty(), null, false),
            new CompatibleFlavour("ollama_chat", Optional.of("http://localhost:11434/v1"), null, true),
            new CompatibleFlavour("ollama", Optional.of("http://localhost:11434/v1"), null, true),
            new CompatibleFlavour("lm_studio", Optional.of("http://localhost:1234/v1"), "LM_STUDIO_API_KEY", false),
            new CompatibleFlavour("deepseek", Optional.of("https://api.deepseek.com/v1"), "DEEPSEEK_API_KEY", false),
            new CompatibleFlavour("groq", Optional.of("https://api.groq.com/openai/v1"), "GROQ_API_KEY", false),
            new CompatibleFlavour("together_ai", Optional.of("https://api.together.xyz/v1"), "TOGETHERAI_API_KEY", false),
            new CompatibleFlavour("openrouter", Optional.of("https://openrouter.ai/api/v1"), "OPENROUTER_API_KEY", false),
            new CompatibleFlavour("mistral", Optional.of("https://api.mistral.ai/v1"), "MISTRAL_API_KEY", false),
            new CompatibleFlavour("fireworks_ai", Optional.of("https://api.fireworks.ai/inference/v1"), "FIREWORKS_AI_API_KEY", false),
            new CompatibleFlavour("xai", Optional.of("https://api.x.ai/v1"), "XAI_API_KEY", false),
            new CompatibleFlavour("perplexity", Optional.of("https://api.perplexity.ai"), "PERPLEXITYAI_API_KEY", false),
            new CompatibleFlavour("cohere", Optional.of("https://api.cohere.com/v1"), "COHERE_API_KEY", false),
            new CompatibleFlavour("jina_ai", Optional.of("https://api.jina.ai/v1"), "JINA_AI_API_KEY", false));
}
