package dev.sluice.ops.metrics;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.RouterEvents;
import dev.sluice.router.SkipReason;
import dev.sluice.store.SpendRow;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the gateway counts for {@code GET /metrics}: requests and their durations, Sluice's own
 * overhead, every upstream attempt by outcome, retries, failovers, benches, fallbacks and the
 * fallbacks skipped, tokens, spend and calls by tag; and, read at each scrape, calls in flight, benched
 * deployments, and the health of Redis and the database. The names and labels are listed in
 * docs/observability.md. The series live in Prometheus client_java's registry, one per gateway;
 * the JVM's and the process's ({@link JvmSeries}) are written with them.
 *
 * <p>It hears the router as a {@link RouterEvents} listener and the end of every call through
 * its spend row ({@link #callEnded}); the request path reports requests ({@link #requestStarted},
 * {@link #requestEnded}) and overhead ({@link #overhead}). Every update is an adder increment;
 * the frequent ones (requests, successful attempts, tokens and spend) find their series in a
 * {@link SeriesCache} and allocate nothing.
 */
public final class GatewayMetrics implements RouterEvents {
    /** The content type of what {@link #render()} writes: Prometheus's text format. */
    public static final String CONTENT_TYPE = MetricsText.CONTENT_TYPE;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final RequestSeries requests = new RequestSeries(registry);
    private final TagSeries tags;
    private final Counter attempts = Families.counter(registry, "sluice_upstream_attempts_total",
            "Attempts sent to deployments, by outcome (success, or the failure class) and the upstream's HTTP status "
                    + "(none when it gave no answer).", "model_group", "deployment", "outcome", "status_code");
    private final Histogram attemptSeconds = Families.histogram(registry, "sluice_upstream_attempt_duration_seconds",
            "Time an attempt took: to the whole answer, a stream's first event, or the failure.", RequestSeries.DURATION_BOUNDS,
            "model_group", "deployment", "outcome");
    private final Counter streamCuts = Families.counter(registry, "sluice_stream_interruptions_total",
            "Streams whose upstream failed after their first event was relayed: the caller got a stream_interrupted error event.",
            "model_group", "deployment");
    private final Counter retries = Families.counter(registry, "sluice_retries_total",
            "Attempts repeated on the same deployment after a failure, by its class.", "model_group", "deployment", "failure_class");
    private final Counter failovers = Families.counter(registry, "sluice_failovers_total",
            "Requests moved to an untried sibling deployment after a failure, by its class.", "model_group", "deployment",
            "failure_class");
    private final Counter benches = Families.counter(registry, "sluice_benches_total",
            "Deployments benched (cooled down), by the failure class that benched them.", "model_group", "deployment",
            "failure_class");
    private final Counter fallbacks = Families.counter(registry, "sluice_fallbacks_total",
            "Requests sent to a fallback group once their group was exhausted, by the failure that exhausted it.", "model_group",
            "fallback_group", "failure_class");
    private final Counter skips = Families.counter(registry, "sluice_fallbacks_skipped_total",
            "Fallback groups not tried, by reason (already_tried, unknown_group, max_fallbacks, deadline, no_access, "
                    + "over_budget, no_tag_match).", "model_group", "fallback_group", "reason");
    private final Counter tokens = Families.counter(registry, "sluice_tokens_total",
            "Tokens of finished calls, by the group that served them (the group asked for when none did) and type.",
            "model_group", "type");
    private final Counter spend = Families.counter(registry, "sluice_spend_usd_total",
            "What finished calls cost, in US dollars, by the group that served them.", "model_group");

    private final SeriesCache<CounterDataPoint> successes =
            new SeriesCache<>((group, deployment) -> attempts.labelValues(group, deployment, "success", "2xx"));
    private final SeriesCache<DistributionDataPoint> successSeconds =
            new SeriesCache<>((group, deployment) -> attemptSeconds.labelValues(group, deployment, "success"));
    private final SeriesCache<CounterDataPoint> promptTokens =
            new SeriesCache<>((group, unused) -> tokens.labelValues(group, "prompt"));
    private final SeriesCache<CounterDataPoint> completionTokens =
            new SeriesCache<>((group, unused) -> tokens.labelValues(group, "completion"));
    private final SeriesCache<CounterDataPoint> dollars = new SeriesCache<>((group, unused) -> spend.labelValues(group));

    public GatewayMetrics() {
        this(TagSeries.DEFAULT_MAX_TAGS);
    }

    /** @param maxTags the distinct tags {@code sluice_tag_requests_total} keeps before counting the rest together */
    GatewayMetrics(int maxTags) {
        this.tags = new TagSeries(registry, maxTags);
        JvmSeries.register();
    }

    /** Adds gauges read at each scrape (the gateway's parts that hold the state they show). */
    public void gauge(String name, String help, Supplier<Map<List<String>, Double>> values, String... labelNames) {
        Families.gauge(registry, name, help, values, labelNames);
    }

    /** Adds an unlabelled gauge read at each scrape. */
    public void gauge(String name, String help, Supplier<Double> value) {
        Families.gauge(registry, name, help, () -> Map.of(List.of(), value.get()));
    }

    /** Adds an unlabelled counter whose total another part keeps, read at each scrape. */
    public void counterOf(String name, String help, Supplier<Double> total) {
        Families.counterOf(registry, name, help, () -> Map.of(List.of(), total.get()));
    }

    /** Adds a counter whose totals another part keeps, by label values, read at each scrape. */
    public void counterOf(String name, String help, Supplier<Map<List<String>, Double>> totals, String... labelNames) {
        Families.counterOf(registry, name, help, totals, labelNames);
    }

    public void requestStarted() {
        requests.started();
    }

    /** A model call's answer ended (or its caller left) after {@code nanos}. */
    public void requestEnded(String route, int status, long nanos) {
        requests.ended(route, status, nanos);
    }

    /** Sluice's own time on a model call, as its answer's head went out. */
    public void overhead(String route, long nanos) {
        requests.overhead(route, nanos);
    }

    /** A call ended: its tokens, cost and tags, by the group its spend row names. */
    public void callEnded(SpendRow row) {
        if (row.tokens().promptTokens() > 0) {
            promptTokens.get(row.modelGroup()).inc(row.tokens().promptTokens());
        }
        if (row.tokens().completionTokens() > 0) {
            completionTokens.get(row.modelGroup()).inc(row.tokens().completionTokens());
        }
        double cost = row.cost().doubleValue();
        if (cost > 0) {
            dollars.get(row.modelGroup()).inc(cost);
        }
        tags.count(row.modelGroup(), row.tags());
    }

    @Override
    public void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {
        double seconds = Families.seconds(nanos);
        if (failure.isEmpty()) {
            successes.get(group, deploymentId).inc();
            successSeconds.get(group, deploymentId).observe(seconds);
            return;
        }
        Failure f = failure.get();
        String outcome = f.kind().wireName();
        attempts.labelValues(group, deploymentId, outcome, f.status() > 0 ? Integer.toString(f.status()) : "none").inc();
        attemptSeconds.labelValues(group, deploymentId, outcome).observe(seconds);
    }

    @Override
    public void streamCut(String callId, String group, String deploymentId, String cause) {
        streamCuts.labelValues(group, deploymentId).inc();
    }

    @Override
    public void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {
        retries.labelValues(group, deploymentId, failure.kind().wireName()).inc();
    }

    @Override
    public void failover(String callId, String group, String fromDeploymentId, Failure failure) {
        failovers.labelValues(group, fromDeploymentId, failure.kind().wireName()).inc();
    }

    @Override
    public void bench(String group, String deploymentId, FailureClass cause, Instant until) {
        benches.labelValues(group, deploymentId, cause.wireName()).inc();
    }

    @Override
    public void fallback(String callId, String fromGroup, String toGroup, Failure failure) {
        fallbacks.labelValues(fromGroup, toGroup, failure.kind().wireName()).inc();
    }

    @Override
    public void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {
        skips.labelValues(fromGroup, toGroup, reason.wireName()).inc();
    }

    /** Every series, the gateway's and the process's, in Prometheus's text format ({@link #CONTENT_TYPE}). */
    public String render() {
        return MetricsText.render(registry, true);
    }

    /**
     * The series that name no model group, deployment, fallback group or tag: what a caller
     * other than the operator may see (requests, in-flight calls, Redis and the database, the
     * process). A series that names one is left out whole, not summed into an unlabelled one.
     */
    public String renderUnnamed() {
        return MetricsText.render(registry, false);
    }
}
