package dev.sluice.router;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureText;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What this replica saw go wrong with each deployment lately, as the router's events told it:
 * the last {@link #KEPT} failed attempts of each, and why and until when it was last benched.
 * What {@code GET /model/state} shows beside each deployment's bench.
 *
 * <p>Memory stays bounded: at most {@link #KEPT} failures a deployment, each message cut to
 * {@link #MESSAGE_CHARS}, and one entry per deployment id that ever failed here. Messages are
 * kept as the upstream wrote them; whoever shows one masks the deployment's key in it, as it
 * knows the deployment. Events come from every event loop: each deployment's list is guarded
 * by its own lock, taken only on a failure.
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

    private final Clock clock;
    private final ConcurrentMap<String, Deque<Seen>> failures = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Bench> benches = new ConcurrentHashMap<>();

    public DeploymentFailures(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void attemptFailed(String callId, String group, String deploymentId, Failure failure) {
        Seen seen = new Seen(clock.instant(), failure.kind(), failure.status(), FailureText.of(failure, MESSAGE_CHARS));
        Deque<Seen> kept = failures.computeIfAbsent(deploymentId, id -> new ArrayDeque<>(KEPT));
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
}
