package dev.sluice.vendors.openai.provider;

import dev.sluice.model.Operation;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Which calls each OpenAI-compatible prefix serves. Most copy OpenAI's whole API, and a call
 * their server lacks is its 404 to answer; rerank is served only by the servers that have
 * it (vLLM, and the hosted rerankers), and Cohere and Jina AI are reached here only for
 * what their APIs share with this layout (Cohere's {@code /v1/rerank}; Jina's rerank and
 * embeddings): their chat is another API, refused with a 400 naming the provider.
 */
final class CompatibleOperations {
    private static final Set<Operation> OPENAI_API = EnumSet.complementOf(EnumSet.of(Operation.RERANK));
    private static final Set<Operation> WITH_RERANK = EnumSet.allOf(Operation.class);
    private static final Map<String, Set<Operation>> BY_PREFIX = Map.of(
            "hosted_vllm", WITH_RERANK,
            "vllm", WITH_RERANK,
            "openai_compatible", WITH_RERANK,
            "openai_like", WITH_RERANK,
            "cohere", EnumSet.of(Operation.RERANK),
            "jina_ai", EnumSet.of(Operation.RERANK, Operation.EMBEDDINGS));

    private CompatibleOperations() {}

    static boolean serves(String prefix, Operation operation) {
        return BY_PREFIX.getOrDefault(prefix, OPENAI_API).contains(operation);
    }
}
