package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureText;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What this replica saw go wrong with each deployment lately, as the router's events told it:
 * the last {@link #KEPT} failed attempts of each, and why and until when it was last benched.
 * What {@code GET /model/state} shows beside each deployment's bench.
 *
 * <p>A message is kept with the keys of the deployment that failed masked in it, masked when
 * the failure is seen and before it is cut: a key the cut went through would no longer be
 * found, and one that an update of the deployment has since replaced would no longer be
 * known. Memory stays bounded: at most {@link #KEPT} failures a deployment, each message cut
 * to {@link #MESSAGE_CHARS}, and one entry per deployment served; a deployment's entries go
 * when the gateway stops serving it ({@link #keepOnly}). Events come from every
 * event loop: each deployment's list is guarded by its own lock, taken only on a failure.
 */
public final class DeploymentFailures implements RouterEvents {
    /** The failures kept per deployment. */
    public static final int KEPT = 10;
    /** The longest message kept of a failure. */
    public static final int MESSAGE_CHARS = 500;

    /**
     * One failed attempt.
     *
     * @param status the upstream's HTTP status, or 0 when it gave no HTTP answer
     */
    public record Seen(Instant at, FailureClass kind, int status, String message) {}

    /** A deployment's last bench: the failure class that caused it, and when it ends. */
    public record Bench(FailureClass cause, Instant until) {}

    /** Masks the keys a deployment was sent in what it answered. */
    @FunctionalInterface
    public interface KeyMasking {
        String masked(Deployment deployment, String text);
    }

    private final Clock clock;
    private final KeyMasking masking;
    private final ConcurrentMap<String, Deque<Seen>> failures = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Bench> benches = new ConcurrentHashMap<>();

    public DeploymentFailures(Clock clock, KeyMasking masking) {
        this.clock = clock;
        this.masking = masking;
    }

    @Override
    public void attemptFailed(String callId, String group, Deployment deployment, Failure failure) {
        String message = FailureText.cut(FailureText.of(failure, text -> masking.masked(deployment, text)), MESSAGE_CHARS);
        Seen seen = new Seen(clock.instant(), failure.kind(), failure.status(), message);
        Deque<Seen> kept = failures.computeIfAbsent(deployment.id(), id -> new ArrayDeque<>(KEPT));
        synchronized (kept) {
            if (kept.size() == KEPT) {
                kept.removeFirst();
            }
            kept.addLast(seen);
        }
    }

    @Override
    public void bench(String group, String deploymentId, FailureClass cause, Instant until) {
        benches.put(deploymentId, new Bench(cause, until));
    }

    /** The deployment's last failures seen here, newest first. */
    public List<Seen> recent(String deploymentId) {
        Deque<Seen> kept = failures.get(deploymentId);
        if (kept == null) {
            return List.of();
        }
        List<Seen> newestFirst;
        synchronized (kept) {
            newestFirst = new ArrayList<>(kept);
        }
        return newestFirst.reversed();
    }

    /** The deployment's last bench made here, if any (a bench another replica made is not known here). */
    public Optional<Bench> lastBench(String deploymentId) {
        return Optional.ofNullable(benches.get(deploymentId));
    }

    /**
     * Why the deployment is benched until {@code benchedUntil} (the cooldown store's end,
     * perhaps shared by another replica): the cause of the last bench made here when that
     * bench ends then, to the millisecond (the precision Redis shares ends in); else none,
     * as this replica does not know why another benched it.
     */
    public Optional<FailureClass> benchCause(String deploymentId, Instant benchedUntil) {
        Instant shared = benchedUntil.truncatedTo(ChronoUnit.MILLIS);
        return lastBench(deploymentId).filter(bench -> bench.until().truncatedTo(ChronoUnit.MILLIS).equals(shared))
                .map(Bench::cause);
    }

    /**
     * Forgets what was seen of every deployment but {@code served}, those the gateway serves
     * now. Told on each change of the served set, it also drops what an attempt still running
     * when its deployment was removed added after the change before.
     */
    public void keepOnly(Set<String> served) {
        failures.keySet().retainAll(served);
        benches.keySet().retainAll(served);
    }
}
