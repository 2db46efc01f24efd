package dev.sluice.metrics;

import dev.sluice.router.SkipReason;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.RouterEvents;
import dev.sluice.store.SpendRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What the gateway counts for {@code GET /metrics}: requests and their durations, Sluice's own
 * overhead, every upstream attempt by outcome, retries, failovers, benches, fallbacks and the
 * fallbacks skipped, tokens and spend; and, read at each scrape, calls in flight, benched
 * deployments, and the health of Redis and the database. The names and labels are listed in
 * docs/observability.md.
 *
 * <p>It hears the router as a {@link RouterEvents} listener and the end of every call through
 * its spend row ({@link #callEnded}); the request path reports requests ({@link #requestStarted},
 * {@link #requestEnded}) and overhead ({@link #overhead}). Every update is an adder increment.
 */
public final class GatewayMetrics implements RouterEvents {
    /** Durations of requests and attempts, in seconds: half a millisecond to five minutes. */
    private static final double[] DURATION_BOUNDS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
            5, 10, 30, 60, 120, 300};
    /** Sluice's own time on a request, in seconds: 50 µs to a quarter second. */
    private static final double[] OVERHEAD_BOUNDS = {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
            0.1, 0.25};

    private final MetricRegistry registry = new MetricRegistry();
    private final LongAdder inFlight = new LongAdder();
    private final Counters requests = registry.counter("sluice_requests_total",
            "Model calls answered, by route and the status the caller got (499: the caller left first).", "route", "status_code");
    private final Histograms requestSeconds = registry.histogram("sluice_request_duration_seconds",
            "Time from a model call's arrival to the end of its answer (a stream's last event), by route.", DURATION_BOUNDS, "route");
    private final Histograms overheadSeconds = registry.histogram("sluice_overhead_duration_seconds",
            "Sluice's own time on a model call until its answer's head: the total less the time spent waiting for upstreams.",
            OVERHEAD_BOUNDS, "route");
    private final Counters attempts = registry.counter("sluice_upstream_attempts_total",
            "Attempts sent to deployments, by outcome (success, or the failure class) and the upstream's HTTP status "
                    + "(none when it gave no answer).", "model_group", "deployment", "outcome", "status_code");
    private final Histograms attemptSeconds = registry.histogram("sluice_upstream_attempt_duration_seconds",
            "Time an attempt took: to the whole answer, a stream's first event, or the failure.", DURATION_BOUNDS,
            "model_group", "deployment", "outcome");
    private final Counters streamCuts = registry.counter("sluice_stream_interruptions_total",
            "Streams whose upstream failed after their first event was relayed: the caller got a stream_interrupted error event.",
            "model_group", "deployment");
    private final Counters retries = registry.counter("sluice_retries_total",
            "Attempts repeated on the same deployment after a failure, by its class.", "model_group", "deployment", "failure_class");
    private final Counters failovers = registry.counter("sluice_failovers_total",
            "Requests moved to an untried sibling deployment after a failure, by its class.", "model_group", "deployment",
            "failure_class");
    private final Counters benches = registry.counter("sluice_benches_total",
            "Deployments benched (cooled down), by the failure class that benched them.", "model_group", "deployment",
            "failure_class");
    private final Counters fallbacks = registry.counter("sluice_fallbacks_total",
            "Requests sent to a fallback group once their group was exhausted, by the failure that exhausted it.", "model_group",
            "fallback_group", "failure_class");
    private final Counters skips = registry.counter("sluice_fallbacks_skipped_total",
            "Fallback groups not tried, by reason (already_tried, unknown_group, max_fallbacks, deadline, no_access, "
                    + "over_budget).", "model_group", "fallback_group", "reason");
    private final Counters tokens = registry.counter("sluice_tokens_total",
            "Tokens of finished calls, by the group that served them (the group asked for when none did) and type.",
            "model_group", "type");
    private final Counters spend = registry.counter("sluice_spend_usd_total",
            "What finished calls cost, in US dollars, by the group that served them.", "model_group");

    public GatewayMetrics() {
        registry.gauge("sluice_requests_in_flight", "Model calls received and not yet answered in full.", () -> (double) inFlight.sum());
    }

    /** Adds gauges read at each scrape (the gateway's parts that hold the state they show). */
    public void gauge(String name, String help, Supplier<Map<List<String>, Double>> values, String... labelNames) {
        registry.gauge(name, help, values, labelNames);
    }

    /** Adds an unlabelled gauge read at each scrape. */
    public void gauge(String name, String help, Supplier<Double> value) {
        registry.gauge(name, help, value);
    }

    /** Adds an unlabelled counter whose total another part keeps, read at each scrape. */
    public void counterOf(String name, String help, Supplier<Double> total) {
        registry.counterOf(name, help, total);
    }

    /** Adds a counter whose totals another part keeps, by label values, read at each scrape. */
    public void counterOf(String name, String help, Supplier<Map<List<String>, Double>> totals, String... labelNames) {
        registry.counterOf(name, help, totals, labelNames);
    }

    public void requestStarted() {
        inFlight.increment();
    }

    /** A model call's answer ended (or its caller left) after {@code nanos}. */
    public void requestEnded(String route, int status, long nanos) {
        inFlight.decrement();
        requests.inc(route, Integer.toString(status));
        requestSeconds.observe(seconds(nanos), route);
    }

    /** Sluice's own time on a model call, as its answer's head went out. */
    public void overhead(String route, long nanos) {
        overheadSeconds.observe(seconds(nanos), route);
    }

    /** A call ended: its tokens and cost, by the group its spend row names. */
    public void callEnded(SpendRow row) {
        if (row.promptTokens() > 0) {
            tokens.add(row.promptTokens(), row.modelGroup(), "prompt");
        }
        if (row.completionTokens() > 0) {
            tokens.add(row.completionTokens(), row.modelGroup(), "completion");
        }
        double dollars = row.cost().doubleValue();
        if (dollars > 0) {
            spend.add(dollars, row.modelGroup());
        }
    }

    @Override
    public void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {
        String outcome = failure.map(f -> f.kind().wireName()).orElse("success");
        String status = failure.map(f -> f.status() > 0 ? Integer.toString(f.status()) : "none").orElse("2xx");
        attempts.inc(group, deploymentId, outcome, status);
        attemptSeconds.observe(seconds(nanos), group, deploymentId, outcome);
    }

    @Override
    public void streamCut(String callId, String group, String deploymentId, String cause) {
        streamCuts.inc(group, deploymentId);
    }

    @Override
    public void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {
        retries.inc(group, deploymentId, failure.kind().wireName());
    }

    @Override
    public void failover(String callId, String group, String fromDeploymentId, Failure failure) {
        failovers.inc(group, fromDeploymentId, failure.kind().wireName());
    }

    @Override
    public void bench(String group, String deploymentId, FailureClass cause, Instant until) {
        benches.inc(group, deploymentId, cause.wireName());
    }

    @Override
    public void fallback(String callId, String fromGroup, String toGroup, Failure failure) {
        fallbacks.inc(fromGroup, toGroup, failure.kind().wireName());
    }

    @Override
    public void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {
        skips.inc(fromGroup, toGroup, reason.wireName());
    }

    /** Every metric, in Prometheus's text format ({@link MetricRegistry#CONTENT_TYPE}). */
    public String render() {
        return registry.render();
    }

    private static double seconds(long nanos) {
        return Math.max(0, nanos) / (double) TimeUnit.SECONDS.toNanos(1);
    }
}
