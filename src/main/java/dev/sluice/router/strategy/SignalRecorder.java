package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import dev.sluice.config.LitellmParams;
import dev.sluice.router.signals.LatencySeries;
import dev.sluice.router.signals.RoutingSignals;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the request path tells the routing signals about each attempt on a deployment, and
 * the one place that turns it into store updates with the time of this clock. Every
 * strategy, whether configured or named per request, reads what this writes.
 *
 * <ul>
 *   <li>{@link #claim}: one more request this minute, before the attempt is sent (a request
 *       counts toward {@code rpm} when it is sent, whatever its outcome, as the provider
 *       counts it and as LiteLLM's usage-based v2 does; counting it only once answered would
 *       let a burst of concurrent requests all see the same headroom). For a strategy that
 *       keeps deployments within their limits, the request is counted only if it fits;</li>
 *   <li>{@link #attemptStarted}: the deployment has one more call open;</li>
 *   <li>{@link Attempt#end}: the call is over, however it ended;</li>
 *   <li>{@link #served}: tokens for this minute's {@code tpm}, and a latency sample;</li>
 *   <li>{@link #timedOut}: a penalty sample.</li>
 * </ul>
 * Other failures leave no sample: the cooldowns deal with them.
 */
public record SignalRecorder(RoutingSignals signals, LatencyArgs latencyArgs, Clock clock) {
    private static final Future<Boolean> CLAIMED = Future.succeededFuture(true);

    /**
     * Counts a request to {@code deployment} in this minute's window. With {@code withinLimits}
     * and a deployment that sets {@code rpm} or {@code tpm}, it is counted only if the
     * deployment has room for it, atomically (across replicas when they share a store), and
     * the future says whether it did; otherwise it is counted and the future says yes at once.
     */
    public Future<Boolean> claim(Deployment deployment, int promptTokens, boolean withinLimits) {
        LitellmParams params = deployment.params();
        if (!withinLimits || (params.capacity().rpm().isEmpty() && params.capacity().tpm().isEmpty())) {
            signals.usage().record(deployment.id(), clock.instant(), 1, 0);
            return CLAIMED;
        }
        return signals.usage().claim(deployment.id(), clock.instant(), params.capacity().rpm(), params.capacity().tpm(), promptTokens);
    }

    /**
     * Counts a call to {@code deployment} as open. The
     * caller ends the returned attempt when the call is over: answered, failed, timed out,
     * or abandoned by a caller who hung up, streams only once the stream has ended.
     */
    public Attempt attemptStarted(Deployment deployment) {
        String id = deployment.id();
        signals.inFlight().started(id);
        return new Attempt(id);
    }

    /**
     * Records a served answer.
     *
     * @param tokens       prompt plus output tokens, for this minute's {@code tpm}
     * @param latency      for a whole answer, the time to the full answer; for a stream,
     *                     the time to its first event
     * @param outputTokens the answer's output tokens; a whole answer's sample is
     *                     {@code latency / outputTokens} (an answer of 0 output tokens counts
     *                     as 1, so an empty answer cannot divide by zero)
     * @param stream       whether the answer was streamed
     */
    public void served(Deployment deployment, long tokens, Duration latency, int outputTokens, boolean stream) {
        Instant now = clock.instant();
        String id = deployment.id();
        if (tokens > 0) {
            signals.usage().record(id, now, 0, tokens);
        }
        double seconds = Math.max(0, latency.toNanos() / 1e9);
        double sample = stream ? seconds : seconds / Math.max(1, outputTokens);
        addSample(id, LatencyBasedStrategy.series(stream), now, sample);
    }

    /**
     * Records that an attempt ran out of time: a {@link LatencyBasedStrategy#TIMEOUT_PENALTY_SECONDS}
     * sample in both series, since a deployment too slow to answer is too slow to stream.
     */
    public void timedOut(Deployment deployment) {
        Instant now = clock.instant();
        String id = deployment.id();
        for (LatencySeries series : LatencySeries.values()) {
            addSample(id, series, now, LatencyBasedStrategy.TIMEOUT_PENALTY_SECONDS);
        }
    }

    private void addSample(String deploymentId, LatencySeries series, Instant now, double seconds) {
        signals.latency().add(deploymentId, series, now, seconds, latencyArgs.maxSamples());
    }

    /** One open call. Ending it more than once lowers the count once. */
    public final class Attempt {
        private final String deploymentId;
        private final AtomicBoolean ended = new AtomicBoolean();

        private Attempt(String deploymentId) {
            this.deploymentId = deploymentId;
        }

        /** Lowers the deployment's open calls; true the first time, false after. */
        public boolean end() {
            if (!ended.compareAndSet(false, true)) {
                return false;
            }
            signals.inFlight().ended(deploymentId);
            return true;
        }
    }
}
