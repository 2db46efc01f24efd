package dev.sluice.call.cache;

import java.time.Duration;
import java.util.Optional;

/**
 * What the cache does for one call: its key, whether an entry is read and whether the answer
 * is stored, for how long, and how old an entry may be.
 *
 * @param key    the entry's key, {@code namespace:hash} or {@code hash}
 * @param read   whether an entry is looked for ({@code no-cache} says no)
 * @param write  whether the answer is stored ({@code no-store} says no)
 * @param ttl    how long a stored answer lives: the request's {@code ttl}, else the configured one
 * @param maxAge the request's {@code s-maxage}: an older entry is not taken
 */
public record CachePlan(String key, boolean read, boolean write, Optional<Duration> ttl, Optional<Duration> maxAge) {}
