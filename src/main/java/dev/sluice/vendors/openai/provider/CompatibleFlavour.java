package dev.sluice.vendors.openai.provider;

import java.util.Optional;

/**
 * One OpenAI-compatible provider prefix as LiteLLM users write it ({@code groq/llama3},
 * {@code hosted_vllm/qwen}), with the base URL and key variable it uses when the config
 * leaves them out.
 *
 * @param prefix       the provider prefix in {@code litellm_params.model}
 * @param defaultBase  base URL used without {@code api_base}; empty where there is no
 *                     sensible default (a self-hosted server)
 * @param keyVariable  environment variable read when {@code api_key} is absent, or null
 * @param addV1        whether a bare {@code api_base} (no path) gets {@code /v1} appended, as
 *                     servers that also speak a native API expect (Ollama)
 */
public record CompatibleFlavour(String prefix, Optional<String> defaultBase, String keyVariable, boolean addV1) {}
