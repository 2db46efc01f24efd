package dev.sluice.ops.health;

import dev.sluice.config.Deployment;
import dev.sluice.config.HealthCheckSettings;
import dev.sluice.config.WildcardPattern;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.ModelRegistry;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.upstream.UpstreamClient;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The health of the deployments, as {@code GET /health} reports it: probes sent on demand, or
 * (with {@code background_health_checks}) rounds of probes every {@code health_check_interval}
 * whose latest result is answered at once. Shared by every event loop.
 *
 * <h2>Design notes</h2>
 * A round probes every served deployment at once (the config file's and those added at run
 * time, as served when the round starts), each within its own deadline, so a round lasts as
 * long as its slowest probe and at most {@code health_check_timeout}. Background rounds run on
 * one event loop of their own with their own upstream client, one at a time: the next starts
 * {@code interval} after the previous one ended, so a slow round never overlaps the next. Until
 * the first round ends, {@link #latest()} is that round's pending result, so an early caller
 * waits for real results rather than getting an empty list. Only background rounds bench
 * ({@code health_check_bench_unhealthy}): a probe sent on demand reports and changes nothing.
 */
public final class HealthChecks {
    private static final Logger log = LoggerFactory.getLogger(HealthChecks.class);

    private final HealthCheckSettings settings;
    private final ModelRegistry models;
    private final HealthProbe probe;
    private final ProbeBench bench;
    private final Clock clock;
    private final LongSupplier nanoTime;
    private final CompletableFuture<HealthReport> first = new CompletableFuture<>();
    private volatile CompletionStage<HealthReport> latest = first;
    /** The last round that ended, read and written only on the rounds' event loop. */
    private HealthReport previous;

    /**
     * @param attemptDeadline a deployment's own deadline for one attempt, as routed calls have it
     * @param nanoTime        the monotonic clock upstream deadlines are measured with
     */
    public HealthChecks(HealthCheckSettings settings, ModelRegistry models, Providers providers, Cooldowns cooldowns,
            Function<Deployment, Duration> attemptDeadline, TimeSource time) {
        Clock clock = time.clock();
        this.settings = settings;
        this.models = models;
        this.probe = new HealthProbe(providers, attemptDeadline, settings.timeout(), clock);
        this.bench = new ProbeBench(cooldowns, models, clock, settings.interval(), settings.timeout());
        this.clock = clock;
        this.nanoTime = time.ticker();
    }

    public HealthCheckSettings settings() {
        return settings;
    }

    /** Whether {@code /health} answers from background rounds rather than probing on each call. */
    public boolean inBackground() {
        return settings.background();
    }

    /**
     * Probes {@code deployments} now, all at once, on the calling event loop with its upstream
     * client. The future never fails. A wildcard deployment ({@code model: openai/*}) is left
     * out: it names no model to ask for, and a probe of {@code *} would only fail and bench it.
     * So is one that only makes images, speech or transcriptions ({@code model_info.mode}): a
     * chat probe would fail and bench it, and one of its own would be a paid image, voice or
     * file every round.
     */
    public Future<HealthReport> probe(List<Deployment> deployments, UpstreamClient upstreams) {
        Instant checkedAt = clock.instant();
        List<Future<ProbeResult>> probes = deployments.stream()
                .filter(d -> !WildcardPattern.isPattern(d.params().model()) && HealthProbe.probes(d))
                .map(d -> probe.probe(d, upstreams)).toList();
        return Future.join(probes).transform(all -> Future.succeededFuture(
                new HealthReport(checkedAt, probes.stream().map(Future::result).toList())));
    }

    /**
     * The latest background round, or the first one while it runs. Completes on the rounds'
     * event loop: a caller answers on its own.
     */
    public CompletionStage<HealthReport> latest() {
        return latest;
    }

    /**
     * Starts the background rounds, when {@code background_health_checks} asks for them; they
     * stop when {@code vertx} closes. Call once, from outside any event loop.
     */
    public void startBackground(Vertx vertx) {
        if (!settings.background()) {
            return;
        }
        Context rounds = vertx.getOrCreateContext();
        UpstreamClient upstreams = new UpstreamClient(vertx, nanoTime);
        rounds.runOnContext(v -> round(vertx, upstreams));
    }

    /**
     * One background round, and the next one scheduled after it whatever happened: a round
     * that throws (an {@code OutOfMemoryError} included) fails as a round the probes failed,
     * rather than ending the rounds for good, which nothing else would notice.
     */
    private void round(Vertx vertx, UpstreamClient upstreams) {
        Future<HealthReport> round;
        try {
            round = probe(models.deployments(), upstreams)
                    .map(report -> new HealthReport(report.checkedAt(), report.results().stream()
                            .map(result -> settings.benches() ? bench.apply(result) : result)
                            .toList()));
        } catch (Throwable e) {
            round = Future.failedFuture(e);
        }
        round.onComplete(done -> {
            try {
                ended(done);
            } finally {
                try {
                    vertx.setTimer(Math.max(1, settings.interval().toMillis()), id -> round(vertx, upstreams));
                } catch (RuntimeException closing) {
                    // The gateway is stopping: no more rounds.
                }
            }
        });
    }

    private void ended(AsyncResult<HealthReport> done) {
        if (done.succeeded()) {
            logChanges(previous, done.result());
            previous = done.result();
            latest = CompletableFuture.completedFuture(done.result());
            first.complete(done.result());
        } else {
            log.warn("health.round_failed reason={}", done.cause().toString());
            first.completeExceptionally(done.cause());
        }
    }

    /** Logs each deployment that turned unhealthy, or healthy again, since the previous round. */
    private static void logChanges(HealthReport previous, HealthReport current) {
        Map<String, Boolean> before = new HashMap<>();
        if (previous != null) {
            previous.results().forEach(result -> before.put(result.deployment().id(), result.healthy()));
        }
        for (ProbeResult result : current.results()) {
            Boolean was = before.get(result.deployment().id());
            if (!result.healthy() && !Boolean.FALSE.equals(was)) {
                log.warn("health.unhealthy group={} deployment={} error=\"{}\"", result.deployment().modelName(),
                        result.deployment().id(), result.error());
            } else if (result.healthy() && Boolean.FALSE.equals(was)) {
                log.info("health.healthy group={} deployment={}", result.deployment().modelName(), result.deployment().id());
            }
        }
    }
}
