package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.Caller;
import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureText;
import dev.sluice.router.RouteOutcome;
import dev.sluice.vendors.Providers;
import io.vertx.core.MultiMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One model call as {@code GET /calls/recent} shows it: who called which group, what each
 * attempt did, how it ended, what it cost. Filled on the call's event loop as the call runs,
 * then {@linkplain RecentCalls#add published} once when its answer ends, and never written
 * after (a call whose caller left shows what was known then): readers on other threads see it
 * through the ring's volatile slot.
 *
 * <h2>Design notes</h2>
 * It is on every call's path, so it is one small object that holds references to what the
 * call has built anyway (the caller, the deployments tried, the response's headers) and
 * builds no JSON: the route does that when it is read. Only a call that had a failed attempt
 * pays for more: its attempts are written down then, each message cut short, so the ring never
 * holds an upstream's error body.
 */
public final class RecentCall {
    /** The longest attempt message kept. */
    static final int MESSAGE_CHARS = 500;

    /**
     * One attempt: the deployment called in a group, and how it failed (a null class when it served).
     *
     * @param status the upstream's HTTP status when it failed with one, else 0
     */
    public record Attempt(String group, String deploymentId, FailureClass failureClass, int status, String message) {}

    private final String callId;
    private final long startedMillis;
    private final long startNanos;
    long sequence;
    private Caller caller;
    private String group;
    private boolean stream;
    /** The attempts of a call none of whose attempts failed: the router's own trail, kept as it is. */
    private List<RouteOutcome.GroupRun> servedTrail = List.of();
    /** The attempts of a call with a failed one, written down when it was routed. */
    private List<Attempt> failedTrail;
    private Deployment deployment;
    private int retries;
    private int fallbacks;
    private double cost;
    private boolean settled;
    private boolean cacheHit;
    private int status;
    private long latencyNanos;
    private MultiMap headers;
    private boolean published;

    RecentCall(String callId, long startedMillis, long startNanos) {
        this.callId = callId;
        this.startedMillis = startedMillis;
        this.startNanos = startNanos;
    }

    void caller(Caller who) {
        this.caller = who;
    }

    /** The group asked for (when decoded) or resolved; the group that served replaces it at the end. */
    void group(String name, boolean streamed) {
        this.group = name;
        this.stream = streamed;
    }

    void group(String name) {
        this.group = name;
    }

    /** Routing ended: the attempts, with any failure's message masked of the deployment's key. */
    void routed(RouteOutcome<?> outcome, Providers providers) {
        if (published) {
            return;
        }
        fallbacks = outcome.fallbacksTried();
        int made = 0;
        boolean failed = false;
        for (RouteOutcome.GroupRun run : outcome.groups()) {
            made += run.attempts().size();
            retries += Math.max(0, run.attempts().size() - 1);
            for (RouteOutcome.Tried tried : run.attempts()) {
                failed |= tried.failure().isPresent();
            }
        }
        if (made > 0) {
            deployment = outcome.lastDeployment();
        }
        if (!failed) {
            servedTrail = outcome.groups();
            return;
        }
        failedTrail = new ArrayList<>(made);
        for (RouteOutcome.GroupRun run : outcome.groups()) {
            for (RouteOutcome.Tried tried : run.attempts()) {
                failedTrail.add(attempt(run.group(), tried, providers));
            }
        }
    }

    private static Attempt attempt(String group, RouteOutcome.Tried tried, Providers providers) {
        if (tried.failure().isEmpty()) {
            return new Attempt(group, tried.deployment().id(), null, 0, null);
        }
        Failure failure = tried.failure().get();
        // Masked whole, then cut: a key the cut went through would no longer be found.
        String message = FailureText.cut(FailureText.of(failure, KeyMask.of(providers, tried.deployment())::text), MESSAGE_CHARS);
        return new Attempt(group, tried.deployment().id(), failure.kind(), failure.status(), message);
    }

    /** The call's accounting ended as {@code end}, costing {@code charged}; only the first end counts. */
    void settled(CallEnd end, double charged) {
        if (settled || published) {
            return;
        }
        settled = true;
        group = end.group();
        end.deployment().ifPresent(served -> deployment = served);
        cost = Math.max(0, charged);
    }

    /** The response cache answered the call. */
    void cached(CallEnd end) {
        cacheHit = true;
        settled(end, 0);
    }

    /** The answer ended with {@code code} (499: the caller left): returns whether this is the first end, to publish. */
    boolean ended(int code, long nowNanos, MultiMap answerHeaders) {
        if (published) {
            return false;
        }
        published = true;
        status = code;
        latencyNanos = nowNanos - startNanos;
        headers = answerHeaders;
        return caller != null;
    }

    public String callId() {
        return callId;
    }

    public long startedMillis() {
        return startedMillis;
    }

    public Caller caller() {
        return caller;
    }

    /** The group that served or answered last; the one asked for when none was called; null before it was read. */
    public String group() {
        return group;
    }

    /** The deployment that served, or that answered last; empty when none was called. */
    public Optional<Deployment> deployment() {
        return Optional.ofNullable(deployment);
    }

    public int status() {
        return status;
    }

    public long latencyMillis() {
        return latencyNanos / 1_000_000;
    }

    public double cost() {
        return cost;
    }

    /** Attempts after the first in each group tried. */
    public int retries() {
        return retries;
    }

    public int fallbacks() {
        return fallbacks;
    }

    public boolean cacheHit() {
        return cacheHit;
    }

    public boolean stream() {
        return stream;
    }

    /** The response's headers as they went out (all of them: the reader picks what it shows). */
    public MultiMap headers() {
        return headers;
    }

    /** Every attempt, in the order made. */
    public List<Attempt> attempts() {
        if (failedTrail != null) {
            return failedTrail;
        }
        List<Attempt> attempts = new ArrayList<>();
        for (RouteOutcome.GroupRun run : servedTrail) {
            for (RouteOutcome.Tried tried : run.attempts()) {
                attempts.add(new Attempt(run.group(), tried.deployment().id(), null, 0, null));
            }
        }
        return attempts;
    }
}
