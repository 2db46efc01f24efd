package dev.sluice.call;

import java.util.List;

import dev.sluice.router.AttemptPlan;
import dev.sluice.router.RouteOutcome;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The {@code x-litellm-*} headers every routed answer carries, success or error, so a
 * caller can see which deployment of which group answered and what it took:
 * <ul>
 *   <li>{@code x-litellm-model-id}: the deployment that served, or that answered last;
 *   <li>{@code x-litellm-model-group}: its group;
 *   <li>{@code x-litellm-attempted-retries}: retries and sibling failovers in that group;
 *   <li>{@code x-litellm-attempted-fallbacks}: fallback groups tried; {@code 0} on a success
 *       of the requested group; absent on an error where no fallback group was tried;
 *   <li>{@code x-litellm-overhead-duration-ms}: the time Sluice itself spent on the request,
 *       i.e. everything but the waits for upstream answers;
 *   <li>{@code x-sluice-dropped-params}: the caller's parameters the last deployment's vendor
 *       cannot take and that {@code drop_params} left out, comma separated; absent when none.
 * </ul>
 * One instance per request.
 */
final class RoutedHeaders {
    static final String MODEL_ID = "x-litellm-model-id";
    static final String MODEL_GROUP = "x-litellm-model-group";
    static final String ATTEMPTED_RETRIES = "x-litellm-attempted-retries";
    static final String ATTEMPTED_FALLBACKS = "x-litellm-attempted-fallbacks";
    static final String OVERHEAD = "x-litellm-overhead-duration-ms";
    static final String DROPPED_PARAMS = "x-sluice-dropped-params";

    private final LongSupplier nanoTime;
    private final long started;
    private long upstreamNanos;
    private String group;
    private String deploymentId;
    private int retries;
    private Integer fallbacks;
    private List<String> droppedParams = List.of();

    private final LongConsumer overheadMeasured;

    /** @param overheadMeasured told the overhead, in nanoseconds, when the headers are applied */
    RoutedHeaders(LongSupplier nanoTime, LongConsumer overheadMeasured) {
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.overheadMeasured = overheadMeasured;
    }

    /** Adds time spent waiting for an upstream, which is not Sluice's overhead. */
    void upstreamTook(long nanos) {
        upstreamNanos += nanos;
    }

    /** What the attempt now starting leaves out of the caller's request. */
    void droppedParams(List<String> params) {
        droppedParams = params;
    }

    /** The answer is served by this attempt. */
    void served(AttemptPlan plan) {
        group = plan.group().name();
        deploymentId = plan.deployment().id();
        retries = plan.retriesInGroup();
        fallbacks = plan.fallbacksTried();
    }

    /** The answer came from the response cache: no deployment, retry or fallback. */
    void cached(String group) {
        this.group = group;
        this.deploymentId = null;
        this.retries = 0;
        this.fallbacks = 0;
    }

    /** Routing ended: the last attempt's deployment and the fallback count (absent on an error with none). */
    void ended(RouteOutcome<?> outcome) {
        group = outcome.lastGroup();
        deploymentId = outcome.lastDeployment() == null ? null : outcome.lastDeployment().id();
        retries = outcome.retriesInLastGroup();
        boolean served = outcome.served().isPresent();
        fallbacks = served || outcome.fallbacksTried() > 0 ? outcome.fallbacksTried() : null;
    }

    void apply(HttpServerResponse response) {
        if (response.headWritten() || group == null) {
            return;
        }
        response.putHeader(MODEL_GROUP, group).putHeader(ATTEMPTED_RETRIES, Integer.toString(retries));
        if (deploymentId != null) {
            response.putHeader(MODEL_ID, deploymentId); // none when no deployment could be called at all
        }
        if (fallbacks != null) {
            response.putHeader(ATTEMPTED_FALLBACKS, Integer.toString(fallbacks));
        }
        if (!droppedParams.isEmpty()) {
            response.putHeader(DROPPED_PARAMS, String.join(",", droppedParams));
        }
        long overhead = Math.max(0, nanoTime.getAsLong() - started - upstreamNanos);
        response.putHeader(OVERHEAD, Long.toString(TimeUnit.NANOSECONDS.toMillis(overhead)));
        overheadMeasured.accept(overhead);
    }
}
