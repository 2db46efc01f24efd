package dev.sluice.ops.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The request path's series: model calls in flight, answered (by route and the status the
 * caller got), their durations and Sluice's own overhead. Each update finds its series in a
 * {@link SeriesCache} and adds to it: no allocation once a route and status have been seen.
 */
final class RequestSeries {
    /** Durations of requests and attempts, in seconds: half a millisecond to five minutes. */
    static final double[] DURATION_BOUNDS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
            30, 60, 120, 300};
    /** Sluice's own time on a request, in seconds: 50 µs to a quarter second. */
    static final double[] OVERHEAD_BOUNDS = {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
            0.25};
    /** HTTP statuses as label values, made once: a status outside 0-599 is written when it comes. */
    private static final String[] STATUS = new String[600];

    static {
        for (int i = 0; i < STATUS.length; i++) {
            STATUS[i] = Integer.toString(i);
        }
    }

    private final LongAdder inFlight = new LongAdder();
    private final SeriesCache<CounterDataPoint> requests;
    private final SeriesCache<DistributionDataPoint> requestSeconds;
    private final SeriesCache<DistributionDataPoint> overheadSeconds;

    RequestSeries(PrometheusRegistry registry) {
        Counter answered = Families.counter(registry, "sluice_requests_total",
                "Model calls answered, by route and the status the caller got (499: the caller left first).", "route",
                "status_code");
        Histogram durations = Families.histogram(registry, "sluice_request_duration_seconds",
                "Time from a model call's arrival to the end of its answer (a stream's last event), by route.",
                DURATION_BOUNDS, "route");
        Histogram overheads = Families.histogram(registry, "sluice_overhead_duration_seconds",
                "Sluice's own time on a model call until its answer's head: the total less the time spent waiting for "
                        + "upstreams.", OVERHEAD_BOUNDS, "route");
        Families.gauge(registry, "sluice_requests_in_flight", "Model calls received and not yet answered in full.",
                () -> Map.of(List.of(), (double) inFlight.sum()));
        requests = new SeriesCache<>(answered::labelValues);
        requestSeconds = new SeriesCache<>((route, unused) -> durations.labelValues(route));
        overheadSeconds = new SeriesCache<>((route, unused) -> overheads.labelValues(route));
    }

    void started() {
        inFlight.increment();
    }

    void ended(String route, int status, long nanos) {
        inFlight.decrement();
        requests.get(route, status >= 0 && status < STATUS.length ? STATUS[status] : Integer.toString(status)).inc();
        requestSeconds.get(route).observe(Families.seconds(nanos));
    }

    void overhead(String route, long nanos) {
        overheadSeconds.get(route).observe(Families.seconds(nanos));
    }
}
