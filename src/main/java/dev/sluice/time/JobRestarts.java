package dev.sluice.time;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How often each background job was restarted after a failure, for
 * {@code sluice_background_job_restarts_total}. A job is listed, at zero, from when it starts.
 *
 * <p>The gateway's jobs count in {@link #process()}: one count per process, as the JVM's own
 * series are, since a job such as the spend journal's commit thread is made far from where
 * the metrics are. Tests pass their own.
 */
public final class JobRestarts {
    private static final JobRestarts PROCESS = new JobRestarts();

    private final ConcurrentMap<String, LongAdder> byJob = new ConcurrentHashMap<>();

    /** A count of its own; the gateway's jobs use {@link #process()}. */
    public JobRestarts() {}

    /** The count the gateway's jobs keep and {@code /metrics} shows. */
    public static JobRestarts process() {
        return PROCESS;
    }

    /** Lists {@code job}, at zero if it never restarted. */
    void started(String job) {
        byJob.computeIfAbsent(job, unused -> new LongAdder());
    }

    void restarted(String job) {
        byJob.computeIfAbsent(job, unused -> new LongAdder()).increment();
    }

    /** Restarts of {@code job} so far. */
    public long of(String job) {
        LongAdder count = byJob.get(job);
        return count == null ? 0 : count.sum();
    }

    /** Every job's restarts, keyed by its label values ({@code [job]}), for a callback counter. */
    public Map<List<String>, Double> totals() {
        Map<List<String>, Double> totals = new TreeMap<>((a, b) -> a.getFirst().compareTo(b.getFirst()));
        byJob.forEach((job, count) -> totals.put(List.of(job), (double) count.sum()));
        return totals;
    }
}
