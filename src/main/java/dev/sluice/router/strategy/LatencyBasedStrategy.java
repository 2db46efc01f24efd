package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import dev.sluice.router.signals.LatencySamples;
import dev.sluice.router.signals.LatencySeries;
import dev.sluice.router.signals.UsageWindows;
import dev.sluice.router.strategy.CapacityCheck.Fit;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.random.RandomGenerator;

/**
 * {@code latency-based-routing}: the deployment with the lowest average of its recent
 * latency samples, or one at random among those within {@code lowest_latency_buffer} of it.
 *
 * <p>Design notes. A deployment keeps two series of samples, written by the
 * {@link SignalRecorder}: seconds per output token of whole answers, ranking requests that
 * want a whole answer, and seconds to the first event of streams, ranking stream requests
 * (LiteLLM keeps the same two lists). Both are kept under the deployment's id, the
 * {@link LatencySeries} naming which one, so ranking a stream reads the store exactly as
 * ranking a whole answer does. A timeout adds {@link #TIMEOUT_PENALTY_SECONDS} to
 * both, so one timeout outweighs any real answer until it ages out or newer samples push
 * it out of the {@code max_latency_list_size} kept. Samples older than {@code ttl} are ignored.
 *
 * <p>A candidate with no sample in the series the request is ranked by is tried before any
 * sampled one (at random among such), so a new or long-idle deployment is measured instead
 * of never chosen. LiteLLM reaches the same by giving it a latency of 0; here it is said
 * outright, and an average is only ever taken over a non-empty list, never dividing by
 * zero (LiteLLM's LIT-7053).
 *
 * <p>As in LiteLLM, candidates over their {@code tpm}/{@code rpm} this minute are skipped
 * first (see {@link CapacityCheck}); when none has room, a {@link Pick.NoCapacity} says why.
 */
public final class LatencyBasedStrategy extends WithinLimitsStrategy {
    public static final String NAME = "latency-based-routing";

    /** The sample a timeout adds, in seconds; LiteLLM's figure. */
    public static final double TIMEOUT_PENALTY_SECONDS = 1000.0;

    private final LatencySamples latency;
    private final LatencyArgs args;

    public LatencyBasedStrategy(LatencySamples latency, UsageWindows usage, LatencyArgs args, Clock clock,
            RandomGenerator random) {
        super(NAME, usage, clock, random);
        this.latency = latency;
        this.args = args;
    }

    /** The series that ranks a request: time to first event for a stream, else seconds per output token. */
    static LatencySeries series(boolean stream) {
        return stream ? LatencySeries.FIRST_EVENT : LatencySeries.PER_OUTPUT_TOKEN;
    }

    /** The fastest in the series that ranks the request. */
    @Override
    Deployment choose(List<Fit> fits, RequestFacts request, Instant now) {
        LatencySeries series = series(request.stream());
        int n = fits.size();
        double[] average = new double[n];
        List<Deployment> unmeasured = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Deployment d = fits.get(i).deployment();
            OptionalDouble mean = latency.average(d.id(), series, now, args.ttl());
            if (mean.isEmpty()) {
                unmeasured.add(d);
                continue;
            }
            average[i] = mean.getAsDouble();
        }
        if (!unmeasured.isEmpty()) {
            return unmeasured.get(LowestScore.any(unmeasured.size(), random));
        }
        return fits.get(LowestScore.pick(average, args.buffer(), random)).deployment();
    }
}
