package dev.sluice.call;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import java.time.Duration;

/** How long an attempt, and each chunk of a stream, may take. */
public final class Deadlines {
    private Deadlines() {}

    /**
     * The deadline for an answer (for a stream: until its status and headers arrive; the
     * chunks are then bounded by {@link #betweenChunks}):
     * {@code litellm_params.timeout}, else the router's {@code timeout}, never more than the
     * router's {@code timeout}, which covers the whole call.
     */
    public static Duration attempt(RouterSettings router, Deployment deployment) {
        Duration own = deployment.params().attempts().timeout().orElse(router.timeouts().timeout());
        return own.compareTo(router.timeouts().timeout()) < 0 ? own : router.timeouts().timeout();
    }

    /**
     * The longest wait between two chunks of a stream: {@code litellm_params.stream_timeout},
     * else the router's {@code stream_timeout}, else the attempt deadline.
     */
    static Duration betweenChunks(RouterSettings router, Deployment deployment) {
        return deployment.params().attempts().streamTimeout()
                .or(router.timeouts()::streamTimeout)
                .orElseGet(() -> attempt(router, deployment));
    }

    /** The longest silence between a stream's events before a keep-alive event is written. */
    static final Duration MAX_KEEP_ALIVE = Duration.ofSeconds(5);

    /**
     * How long a stream already relayed may stay silent before the caller is sent its entry
     * API's keep-alive event (Anthropic's {@code ping}): half the wait allowed between chunks,
     * at most {@link #MAX_KEEP_ALIVE}, so a caller waiting on a slow model keeps hearing.
     */
    static Duration keepAlive(Duration betweenChunks) {
        Duration half = betweenChunks.dividedBy(2);
        return half.compareTo(MAX_KEEP_ALIVE) < 0 ? half : MAX_KEEP_ALIVE;
    }
}
