package dev.sluice.router.signals;

/**
 * Which of a deployment's two series of latency samples: what ranks a request that wants a
 * whole answer, and what ranks a stream. Both live in the deployment's one entry of a
 * {@link LatencySamples} store; each is bounded and expires on its own.
 */
public enum LatencySeries {
    /** Seconds per output token of whole answers: the time to the full answer over its output tokens. */
    PER_OUTPUT_TOKEN,
    /** Seconds to the first event of streams. */
    FIRST_EVENT
}
