package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import dev.sluice.router.strategy.CapacityCheck.Fit;
import dev.sluice.state.LatencySamples;
import dev.sluice.state.UsageWindows;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.random.RandomGenerator;

/**
 * {@code latency-based-routing}: the deployment with the lowest average of its recent
 * latency samples, or one at random among those within {@code lowest_latency_buffer} of it.
 *
 * <p>Design notes. A deployment keeps two series of samples, written by the
 * {@link SignalRecorder}: seconds per output token of whole answers, ranking requests that
 * want a whole answer, and seconds to the first event of streams, ranking stream requests
 * (LiteLLM keeps the same two lists). A timeout adds {@link #TIMEOUT_PENALTY_SECONDS} to
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
public final class LatencyBasedStrategy implements RoutingStrategy {
    public static final String NAME = "latency-based-routing";

    /** The sample a timeout adds, in seconds; LiteLLM's figure. */
    public static final double TIMEOUT_PENALTY_SECONDS = 1000.0;

    /**
     * The most stream keys {@link #streamKeys} holds before it starts again: far more than any
     * group has deployments, so only ids of deployments removed at run time ever push it there.
     */
    static final int MAX_STREAM_KEYS = 10_000;

    private final LatencySamples latency;
    /** Each deployment's stream series key, built once instead of on every pick of a stream. */
    private final ConcurrentMap<String, String> streamKeys = new ConcurrentHashMap<>();
    private final CapacityCheck capacity;
    private final LatencyArgs args;
    private final Clock clock;
    private final RandomGenerator random;

    public LatencyBasedStrategy(LatencySamples latency, UsageWindows usage, LatencyArgs args, Clock clock,
            RandomGenerator random) {
        this.latency = latency;
        this.capacity = new CapacityCheck(usage);
        this.args = args;
        this.clock = clock;
        this.random = random;
    }

    /**
     * The key a deployment's samples of one series are stored under: its id for whole
     * answers, the id and {@code #first-event} for streams.
     */
    static String seriesKey(String deploymentId, boolean stream) {
        return stream ? deploymentId + "#first-event" : deploymentId;
    }

    /** {@link #seriesKey} of a stream, made once per deployment. */
    private String streamKey(String deploymentId) {
        String key = streamKeys.get(deploymentId);
        if (key == null) {
            if (streamKeys.size() >= MAX_STREAM_KEYS) {
                streamKeys.clear();
            }
            key = streamKeys.computeIfAbsent(deploymentId, id -> seriesKey(id, true));
        }
        return key;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pick pick(List<Deployment> candidates, RequestFacts request) {
        Instant now = clock.instant();
        return capacity.pick(candidates, request, now, fits -> fastest(fits, request.stream(), now));
    }

    private Deployment fastest(List<Fit> fits, boolean stream, Instant now) {
        int n = fits.size();
        double[] average = new double[n];
        List<Deployment> unmeasured = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Deployment d = fits.get(i).deployment();
            OptionalDouble mean = latency.average(stream ? streamKey(d.id()) : d.id(), now, args.ttl());
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
