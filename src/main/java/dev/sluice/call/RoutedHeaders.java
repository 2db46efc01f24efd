package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.Caller;
import dev.sluice.accounts.spend.PythonFloats;
import dev.sluice.call.cache.CachedAnswer;
import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.CallerOverrides;
import dev.sluice.router.Deadline;
import dev.sluice.router.RouteOutcome;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.List;
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
 *       cannot take and that {@code drop_params} left out, comma separated; absent when none;
 *   <li>{@code x-litellm-max-retries}: the retries the call was allowed (the caller's
 *       {@code num_retries}, else the router's), on routed answers and errors;
 *   <li>{@code x-litellm-timeout}: the timeout the last deployment was called with, in seconds
 *       as Python prints a float ({@code 600.0}): its own, cut to the caller's when that is
 *       shorter; before any attempt, the caller's or the router's;
 *   <li>{@code x-litellm-model-api-base}: the serving deployment's {@code api_base} with no
 *       secret in it ({@link ShownApiBase}); only on a served answer of a deployment that has one;
 *   <li>{@code x-litellm-response-duration-ms}: from the request's arrival to the answer's head,
 *       in milliseconds as a float; only on a served answer (for a stream: to its first byte);
 *   <li>{@code x-litellm-key-spend}: a virtual key's spend as the call found it, plus what the
 *       call cost once a whole answer is charged (a stream's cost is known only at its end,
 *       after the head), as LiteLLM adds them; absent for a master key or no key.
 * </ul>
 * {@code x-litellm-version} is set for every model call when it opens, errors included.
 * It listens to the call's events and records what they tell; the answer's writer then
 * {@linkplain #apply applies} them. One instance per request.
 */
final class RoutedHeaders implements CallListener {
    static final String MODEL_ID = "x-litellm-model-id";
    static final String MODEL_GROUP = "x-litellm-model-group";
    static final String ATTEMPTED_RETRIES = "x-litellm-attempted-retries";
    static final String ATTEMPTED_FALLBACKS = "x-litellm-attempted-fallbacks";
    static final String OVERHEAD = "x-litellm-overhead-duration-ms";
    static final String DROPPED_PARAMS = "x-sluice-dropped-params";
    static final String MAX_RETRIES = "x-litellm-max-retries";
    static final String TIMEOUT = "x-litellm-timeout";
    static final String API_BASE = "x-litellm-model-api-base";
    static final String RESPONSE_DURATION = "x-litellm-response-duration-ms";
    static final String KEY_SPEND = "x-litellm-key-spend";

    private final LongSupplier nanoTime;
    private final long started;
    private final HeaderValues values;
    private long upstreamNanos;
    private String group;
    private String deploymentId;
    private int retries;
    private Integer fallbacks;
    private List<String> droppedParams = List.of();
    private CallerOverrides overrides = CallerOverrides.NONE;
    /** The virtual key's spend as the call found it; NaN for any other caller. */
    private double keySpend = Double.NaN;
    /** Routed (not answered from the cache): the retry and timeout headers apply. */
    private boolean routed;
    /** A deployment served the answer: its api_base and the response duration apply. */
    private Deployment servedBy;
    private Deployment last;
    private RouterSettings settings;

    private final LongConsumer overheadMeasured;

    /** @param overheadMeasured told the overhead, in nanoseconds, when the headers are applied */
    RoutedHeaders(LongSupplier nanoTime, HeaderValues values, LongConsumer overheadMeasured) {
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.values = values;
        this.overheadMeasured = overheadMeasured;
    }

    /** A virtual key's spend is told in {@code x-litellm-key-spend}. */
    @Override
    public void callerKnown(Caller caller) {
        keySpend = caller instanceof Caller.Keyed keyed ? keyed.key().budget().spend().doubleValue() : Double.NaN;
    }

    /** What the caller asked of the router: its {@code num_retries} and {@code timeout} are told back. */
    @Override
    public void resolved(ResolvedCall call) {
        this.overrides = call.overrides();
    }

    /** Time spent waiting for an upstream is not Sluice's overhead. */
    @Override
    public void upstreamWaited(long nanos) {
        upstreamNanos += nanos;
    }

    /** What the attempt now starting leaves out of the caller's request. */
    @Override
    public void attemptLaidOut(List<String> params) {
        droppedParams = params;
    }

    /** The answer is served by this attempt's stream. */
    @Override
    public void streamCommitted(AttemptPlan plan) {
        group = plan.group().name();
        deploymentId = plan.deployment().id();
        retries = plan.retriesInGroup();
        fallbacks = plan.fallbacksTried();
        routed = true;
        servedBy = plan.deployment();
        last = plan.deployment();
        settings = plan.settings();
    }

    /** The answer came from the response cache: no deployment, retry or fallback. */
    @Override
    public void answeredFromCache(CachedAnswer hit, CallEnd end) {
        this.group = end.group();
        this.deploymentId = null;
        this.retries = 0;
        this.fallbacks = 0;
        this.routed = false;
        this.servedBy = null;
    }

    /**
     * Routing ended: the last attempt's deployment and the fallback count (absent on an error
     * with none). A cancelled call is answered no routed headers, and a stream took its
     * headers from its attempt when it committed.
     */
    @Override
    public void routed(RouteOutcome<Answer> outcome) {
        if (outcome.cancelled() || outcome.served().orElse(null) instanceof Answer.Streaming) {
            return;
        }
        routingEnded(outcome);
    }

    private void routingEnded(RouteOutcome<?> outcome) {
        group = outcome.lastGroup();
        deploymentId = outcome.lastDeployment() == null ? null : outcome.lastDeployment().id();
        retries = outcome.retriesInLastGroup();
        boolean served = outcome.served().isPresent();
        fallbacks = served || outcome.fallbacksTried() > 0 ? outcome.fallbacksTried() : null;
        routed = true;
        last = outcome.lastDeployment();
        servedBy = served ? last : null;
        if (settings == null) {
            settings = values.settings(); // no attempt was served: the settings in effect
        }
    }

    /** A whole answer was charged {@code cost}: the key's spend now counts it, as LiteLLM's header does. */
    void charged(HttpServerResponse response, double cost) {
        if (!Double.isNaN(keySpend) && cost > 0 && !response.headWritten()) {
            response.putHeader(KEY_SPEND, PythonFloats.repr(keySpend + cost));
        }
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
        long now = nanoTime.getAsLong();
        if (routed) {
            putLimits(response);
        }
        if (servedBy != null) {
            servedBy.params().endpoint().apiBase().ifPresent(base -> response.putHeader(API_BASE, values.shownBase(base)));
            response.putHeader(RESPONSE_DURATION, HeaderValues.millis(Math.round((now - started) / 1000.0)));
        }
        if (!Double.isNaN(keySpend)) {
            response.putHeader(KEY_SPEND, PythonFloats.repr(keySpend));
        }
        long overhead = Math.max(0, now - started - upstreamNanos);
        response.putHeader(OVERHEAD, Long.toString(TimeUnit.NANOSECONDS.toMillis(overhead)));
        overheadMeasured.accept(overhead);
    }

    /** The retries the call was allowed and the timeout its last deployment was called with. */
    private void putLimits(HttpServerResponse response) {
        response.putHeader(MAX_RETRIES, Integer.toString(overrides.numRetries().orElse(settings.retries().numRetries())));
        Duration timeout = last == null ? settings.timeouts().timeout() : Deadline.own(settings, last);
        Duration asked = overrides.timeout().orElse(null);
        if (asked != null && (last == null || asked.compareTo(timeout) < 0)) {
            timeout = asked;
        }
        response.putHeader(TIMEOUT, values.seconds(timeout));
    }
}
