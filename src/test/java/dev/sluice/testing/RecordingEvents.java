package dev.sluice.testing;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.RouterEvents;
import dev.sluice.router.SkipReason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Writes one line per router event, for asserting an exact sequence, in two renderings.
 *
 * <p>The detailed line names the group with the deployment and carries every figure, stamped
 * with the fake time it happened at (milliseconds since {@link FakeTime#START}):
 * <pre>
 * &#64;0 attempt chat/a1 #0
 * &#64;0 ended chat/a1 server after 0ms
 * &#64;0 failed chat/a1 server 500
 * &#64;0 bench chat/a1 server until &#64;5000
 * &#64;0 failover chat/a1 server
 * &#64;0 retry chat/a1 server wait 117ms
 * &#64;5000 unbench chat/a1
 * &#64;0 fallback chat-&gt;g2 server
 * &#64;0 skip chat-&gt;g2 already_tried
 * </pre>
 * A failure's line gives its status when an upstream answered and the {@code Retry-After} it
 * carried, if any ({@code failed chat/a1 rate_limited 429 retry-after 2000ms}).
 *
 * <p>The brief line ({@link #brief()}) keeps only the routing decision, for a test against a
 * gateway in real time, where waits and durations vary from run to run: {@code attempt a1},
 * {@code failed a1 not_found}, {@code failover a1}, {@code retry a1 server},
 * {@code bench a1 not_found}, {@code unbench a1}, {@code fallback g1->g2},
 * {@code skip g2 already_tried}. How long an attempt took and a cut stream have no brief line.
 */
public final class RecordingEvents implements RouterEvents {
    /** The stamp a line starts with, read when the event happens. */
    private final Supplier<String> stamp;
    /** Every event so far, in order; guarded by {@code this}, whose monitor {@link #awaitBrief} waits on. */
    private final List<Line> lines = new ArrayList<>();

    /** One event, in both renderings. */
    private record Line(String stamp, String detail, Optional<String> brief) {}

    /** Stamps each line with {@code time}'s reading. */
    public RecordingEvents(FakeTime time) {
        this(time.clock());
    }

    /** Stamps each line with {@code clock}'s reading, as milliseconds since {@link FakeTime#START}. */
    public RecordingEvents(Clock clock) {
        this.stamp = () -> "@" + FakeTime.sinceStart(clock.instant()) + " ";
    }

    /**
     * Stamps nothing: for a gateway on the real clock, where a stamp would say nothing a test
     * could assert; its {@link #lines()} are its {@link #unstamped()} lines.
     */
    public RecordingEvents() {
        this.stamp = () -> "";
    }

    /** Every detailed line so far, in order. */
    public synchronized List<String> lines() {
        return lines.stream().map(line -> line.stamp() + line.detail()).toList();
    }

    /** Every detailed line so far without its stamp ({@code bench chat/a1 server until @5000}): for a test that asserts what, not when. */
    public synchronized List<String> unstamped() {
        return lines.stream().map(Line::detail).toList();
    }

    /** Every brief line so far, in order ({@code bench a1 server}). */
    public synchronized List<String> brief() {
        return lines.stream().flatMap(line -> line.brief().stream()).toList();
    }

    /** The detailed lines so far, forgetting every event: what one request did, when a test routes several. */
    public synchronized List<String> drain() {
        List<String> drained = lines();
        lines.clear();
        return drained;
    }

    /** The brief lines so far, forgetting every event: what one request did, when a test routes several. */
    public synchronized List<String> drainBrief() {
        List<String> drained = brief();
        lines.clear();
        return drained;
    }

    /**
     * Waits until the brief lines include {@code line}, for an event the gateway reports on a
     * thread of its own (a bench set by a background probe, or reached through another
     * replica's count); fails, naming the lines seen, if it has not come within {@code timeout}.
     */
    public synchronized void awaitBrief(String line, Duration timeout) {
        long giveUp = System.nanoTime() + timeout.toNanos();
        while (!brief().contains(line)) {
            long left = giveUp - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + line + " (seen: " + brief() + ")");
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + line, e);
            }
        }
    }

    @Override
    public void attempt(String callId, String group, String deploymentId, int attempt) {
        add("attempt " + group + "/" + deploymentId + " #" + attempt, "attempt " + deploymentId);
    }

    @Override
    public void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {
        add("ended " + group + "/" + deploymentId + " " + failure.map(f -> f.kind().wireName()).orElse("served")
                + " after " + FakeTime.millis(Duration.ofNanos(nanos)) + "ms", null);
    }

    @Override
    public void streamCut(String callId, String group, String deploymentId, String cause) {
        add("stream-cut " + group + "/" + deploymentId + " " + cause, null);
    }

    @Override
    public void attemptFailed(String callId, String group, String deploymentId, Failure failure) {
        add("failed " + group + "/" + deploymentId + " " + describe(failure),
                "failed " + deploymentId + " " + failure.kind().wireName());
    }

    @Override
    public void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {
        add("retry " + group + "/" + deploymentId + " " + failure.kind().wireName() + " wait " + delayMillis + "ms",
                "retry " + deploymentId + " " + failure.kind().wireName());
    }

    @Override
    public void failover(String callId, String group, String fromDeploymentId, Failure failure) {
        add("failover " + group + "/" + fromDeploymentId + " " + failure.kind().wireName(), "failover " + fromDeploymentId);
    }

    @Override
    public void bench(String group, String deploymentId, FailureClass cause, Instant until) {
        add("bench " + group + "/" + deploymentId + " " + cause.wireName() + " until @" + FakeTime.sinceStart(until),
                "bench " + deploymentId + " " + cause.wireName());
    }

    @Override
    public void unbench(String group, String deploymentId) {
        add("unbench " + group + "/" + deploymentId, "unbench " + deploymentId);
    }

    @Override
    public void fallback(String callId, String fromGroup, String toGroup, Failure failure) {
        add("fallback " + fromGroup + "->" + toGroup + " " + failure.kind().wireName(), "fallback " + fromGroup + "->" + toGroup);
    }

    @Override
    public void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {
        add("skip " + fromGroup + "->" + toGroup + " " + reason.wireName(), "skip " + toGroup + " " + reason.wireName());
    }

    /** Records one event; {@code brief} is null for an event with no brief line. */
    private synchronized void add(String detail, String brief) {
        lines.add(new Line(stamp.get(), detail, Optional.ofNullable(brief)));
        notifyAll();
    }

    private static String describe(Failure failure) {
        String kind = failure.kind().wireName();
        String status = failure.answered() ? " " + failure.status() : "";
        String retryAfter = failure.retryAfter().map(d -> " retry-after " + FakeTime.millis(d) + "ms").orElse("");
        return kind + status + retryAfter;
    }
}
