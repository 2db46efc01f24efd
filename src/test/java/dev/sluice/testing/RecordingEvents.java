package dev.sluice.testing;

import dev.sluice.testing.FakeTime;
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

/**
 * Writes one line per router event, stamped with the fake time it happened at (milliseconds
 * since {@link FakeTime#START}), for asserting an exact sequence:
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
 */
public final class RecordingEvents implements RouterEvents {
    private final Clock clock;
    private final List<String> lines = new ArrayList<>();

    /** Stamps each line with {@code time}'s reading. */
    public RecordingEvents(FakeTime time) {
        this(time.clock());
    }

    /** Stamps each line with {@code clock}'s reading, as milliseconds since {@link FakeTime#START}. */
    public RecordingEvents(Clock clock) {
        this.clock = clock;
    }

    /** Every line so far, in order. */
    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** Every line so far without its stamp ({@code bench chat/a1 server until @5000}): for a test that asserts what, not when. */
    public synchronized List<String> unstamped() {
        return lines.stream().map(line -> line.substring(line.indexOf(' ') + 1)).toList();
    }

    /** The lines so far, forgetting them: what one request did, when a test routes several. */
    public synchronized List<String> drain() {
        List<String> drained = List.copyOf(lines);
        lines.clear();
        return drained;
    }

    @Override
    public void attempt(String callId, String group, String deploymentId, int attempt) {
        add("attempt " + group + "/" + deploymentId + " #" + attempt);
    }

    @Override
    public void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {
        add("ended " + group + "/" + deploymentId + " " + failure.map(f -> f.kind().wireName()).orElse("served")
                + " after " + FakeTime.millis(Duration.ofNanos(nanos)) + "ms");
    }

    @Override
    public void streamCut(String callId, String group, String deploymentId, String cause) {
        add("stream-cut " + group + "/" + deploymentId + " " + cause);
    }

    @Override
    public void attemptFailed(String callId, String group, String deploymentId, Failure failure) {
        add("failed " + group + "/" + deploymentId + " " + describe(failure));
    }

    @Override
    public void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {
        add("retry " + group + "/" + deploymentId + " " + failure.kind().wireName() + " wait " + delayMillis + "ms");
    }

    @Override
    public void failover(String callId, String group, String fromDeploymentId, Failure failure) {
        add("failover " + group + "/" + fromDeploymentId + " " + failure.kind().wireName());
    }

    @Override
    public void bench(String group, String deploymentId, FailureClass cause, Instant until) {
        add("bench " + group + "/" + deploymentId + " " + cause.wireName() + " until @" + FakeTime.sinceStart(until));
    }

    @Override
    public void unbench(String group, String deploymentId) {
        add("unbench " + group + "/" + deploymentId);
    }

    @Override
    public void fallback(String callId, String fromGroup, String toGroup, Failure failure) {
        add("fallback " + fromGroup + "->" + toGroup + " " + failure.kind().wireName());
    }

    @Override
    public void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {
        add("skip " + fromGroup + "->" + toGroup + " " + reason.wireName());
    }

    private synchronized void add(String line) {
        lines.add("@" + FakeTime.sinceStart(clock.instant()) + " " + line);
    }

    private static String describe(Failure failure) {
        String kind = failure.kind().wireName();
        String status = failure.answered() ? " " + failure.status() : "";
        String retryAfter = failure.retryAfter().map(d -> " retry-after " + FakeTime.millis(d) + "ms").orElse("");
        return kind + status + retryAfter;
    }
}
