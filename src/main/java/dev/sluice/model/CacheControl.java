package dev.sluice.model;

import java.util.Set;

/**
 * A prompt-cache breakpoint: the caller asks the vendor to cache the prompt up to and
 * including the part (or tool) that carries it. Anthropic writes it as
 * {@code "cache_control": {"type": "ephemeral"}} on that block, Bedrock's Converse as a
 * {@code cachePoint} block after it; OpenAI's callers write Anthropic's form on a content
 * part, a message or a tool, as LiteLLM takes it. It is a hint: a vendor without per-block
 * caching (Gemini) leaves it out.
 *
 * @param ttl how long the cache entry lives, {@code 5m} or {@code 1h}; null for the vendor's default (5 minutes)
 */
public record CacheControl(String ttl) {
    /** A breakpoint with the vendor's default lifetime. */
    public static final CacheControl EPHEMERAL = new CacheControl(null);

    /** The lifetimes Anthropic (and Bedrock, for Claude) take. */
    public static final Set<String> TTLS = Set.of("5m", "1h");

    public CacheControl {
        if (ttl != null && !TTLS.contains(ttl)) {
            throw new IllegalArgumentException("ttl: \"" + ttl + "\" (expected: 5m or 1h)");
        }
    }
}
