package dev.sluice.router.strategy;

import java.util.Optional;

/**
 * What a strategy and the pre-call checks may know about the request being routed.
 *
 * @param group        the model group
 * @param promptTokens the prompt's size in tokens, counted with the model family's tokenizer
 * @param stream       whether the caller asked for a stream
 * @param cachePrefix  a key for the request's cacheable prefix (an Anthropic
 *                     {@code cache_control} block, or a long enough prefix for
 *                     OpenAI-family automatic caching), when it has one
 */
public record RequestFacts(String group, int promptTokens, boolean stream, Optional<String> cachePrefix) {}
