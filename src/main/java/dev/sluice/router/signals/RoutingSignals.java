package dev.sluice.router.signals;

/**
 * The live signals routing reads and the request path writes, in one bundle so every
 * strategy (configured or named per request) and the recorder share the same stores.
 */
public record RoutingSignals(InFlightCounts inFlight, UsageWindows usage, LatencySamples latency, CachePins cachePins) {

    /** Stores of this process alone: what Sluice uses when no Redis is configured. */
    public static RoutingSignals inMemory() {
        return new RoutingSignals(
                new InMemoryInFlightCounts(),
                new InMemoryUsageWindows(),
                new InMemoryLatencySamples(),
                new InMemoryCachePins());
    }
}
