package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import dev.sluice.time.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A call's deadline: the total that covers every attempt, wait and fallback of one request
 * (Envoy's global timeout), and from it what each attempt is allowed ({@link Attempt}, Envoy's
 * per-try timeout). Time is read only from the injected monotonic ticker.
 *
 * <p>Design notes. Where each bound comes from:
 * <ul>
 *   <li>the total: the caller's {@code timeout}, else the router's {@code timeout}, counted
 *       from when the router takes the request;
 *   <li>a deployment's own deadline ({@link #own}): {@code litellm_params.timeout}, else the
 *       router's {@code timeout}, never more than the router's {@code timeout};
 *   <li>an attempt's deadline for its answer ({@link Attempt#perTry}): its deployment's own, cut
 *       to what is left of the total when the router sends it. It is fixed then: the upstream
 *       call counts it from the moment it is opened;
 *   <li>a stream's wait for its status and headers: its {@code stream_timeout}
 *       ({@code litellm_params}, else the router's) cut to what is left of the total, or the
 *       per-try deadline when there is none; its first event must come within what was left of
 *       the total, counted from the moment the upstream call was opened;
 *   <li>the wait between two chunks of a stream: its {@code stream_timeout}, else the
 *       deployment's own deadline, not cut: what is left of the total bounds only the wait for
 *       the first event;
 *   <li>the keep-alive interval: half the wait between chunks, at most {@link #MAX_KEEP_ALIVE}.
 * </ul>
 */
public final class Deadline {
    /** The longest silence between a stream's events before a keep-alive event is written. */
    public static final Duration MAX_KEEP_ALIVE = Duration.ofSeconds(5);

    private final TimeSource time;
    private final long endsAt;
    private final Duration routerTimeout;
    private final Optional<Duration> routerStreamTimeout;

    private Deadline(TimeSource time, long endsAt, Duration routerTimeout, Optional<Duration> routerStreamTimeout) {
        this.time = time;
        this.endsAt = endsAt;
        this.routerTimeout = routerTimeout;
        this.routerStreamTimeout = routerStreamTimeout;
    }

    /**
     * A request's deadline, starting now.
     *
     * @param callersTimeout the caller's {@code timeout}, which replaces the router's as the
     *                       total (but not as a deployment's own deadline)
     * @param router         the settings the request took when it started, for its
     *                       {@code timeout} and {@code stream_timeout}
     */
    public static Deadline start(TimeSource time, Optional<Duration> callersTimeout, RouterSettings router) {
        Duration total = callersTimeout.orElse(router.timeouts().timeout());
        return new Deadline(time, time.nanos() + total.toNanos(), router.timeouts().timeout(), router.timeouts().streamTimeout());
    }

    /** What is left of the total now; zero or negative once it has run out. */
    public Duration left() {
        return Duration.ofNanos(endsAt - time.nanos());
    }

    /** Whether nothing is left of the total. */
    public boolean passed() {
        return !left().isPositive();
    }

    /** What an attempt on {@code deployment} sent now is allowed, fixed at this moment. */
    public Attempt attempt(Deployment deployment) {
        return new Attempt(own(routerTimeout, deployment), left(),
                deployment.params().attempts().streamTimeout().or(() -> routerStreamTimeout));
    }

    /**
     * A deployment's own deadline for one attempt under {@code router}, before it is cut to
     * what is left of a request's total: {@code litellm_params.timeout}, else the router's
     * {@code timeout}, never more than the router's {@code timeout}.
     */
    public static Duration own(RouterSettings router, Deployment deployment) {
        return own(router.timeouts().timeout(), deployment);
    }

    private static Duration own(Duration routerTimeout, Deployment deployment) {
        return shorter(deployment.params().attempts().timeout().orElse(routerTimeout), routerTimeout);
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    /**
     * What one attempt is allowed, fixed when the router sends it.
     *
     * @param own           its deployment's own deadline ({@link Deadline#own})
     * @param totalLeft     what was left of the request's total as the attempt started: the
     *                      most any part of the attempt may take, a stream's wait for its first
     *                      event included
     * @param streamTimeout the deployment's {@code stream_timeout}, else the router's, if any
     */
    public record Attempt(Duration own, Duration totalLeft, Optional<Duration> streamTimeout) {
        public Attempt {
            Objects.requireNonNull(own, "own");
            Objects.requireNonNull(totalLeft, "totalLeft");
            Objects.requireNonNull(streamTimeout, "streamTimeout");
        }

        /** The attempt's deadline for an answer: its deployment's own, cut to what is left of the total. */
        public Duration perTry() {
            return shorter(own, totalLeft);
        }

        /**
         * The deadline the upstream call is opened with: for a stream with a
         * {@code stream_timeout}, that (LiteLLM's timeout for streaming calls) cut to what is
         * left of the total; else {@link #perTry}. For a stream it covers the wait for its
         * status and headers; the chunks are then bounded by {@link #betweenChunks}.
         */
        public Duration upstream(boolean stream) {
            if (!stream || streamTimeout.isEmpty()) {
                return perTry();
            }
            return shorter(streamTimeout.get(), totalLeft);
        }

        /**
         * The latest ticker reading by which a stream's first event must have come, for an
         * upstream call opened at {@code openedAt}: what was left of the total, counted from
         * then. Partial chunks or not, the wait for the first event never goes past it.
         */
        public long firstEventBy(long openedAt) {
            return openedAt + totalLeft.toNanos();
        }

        /** The longest wait between two chunks of a stream: its {@code stream_timeout}, else the deployment's own deadline. */
        public Duration betweenChunks() {
            return streamTimeout.orElse(own);
        }

        /**
         * How long a stream already relayed may stay silent before the caller is sent its entry
         * API's keep-alive event (Anthropic's {@code ping}): half the wait allowed between
         * chunks, at most {@link #MAX_KEEP_ALIVE}, so a caller waiting on a slow model keeps hearing.
         */
        public Duration keepAlive() {
            return shorter(betweenChunks().dividedBy(2), MAX_KEEP_ALIVE);
        }
    }
}
