package dev.sluice.ops.overload;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the process is alive in the sense an orchestrator means: its event loops turn, and
 * it spends its time on work rather than on collecting garbage. Each event loop beats every
 * half second ({@link #beat}); a loop that has not beaten for {@link #BLOCKED_AFTER} is
 * blocked. The share of time spent collecting is read over the last {@link #GC_WINDOW}; past
 * {@link #THRASHING_AT} the process is thrashing. Either fails {@code /health/liveliness}
 * (503 naming why), so an orchestrator restarts the process; and a process that stays so for
 * {@code exitAfter} exits by itself (status {@link #EXIT_STATUS}), since nothing may be
 * watching it and a process that cannot serve is worse than none. Thread-safe; time is
 * injected.
 */
public final class Liveness {
    private static final Logger log = LoggerFactory.getLogger(Liveness.class);
    static final Duration BLOCKED_AFTER = Duration.ofSeconds(5);
    static final Duration GC_WINDOW = Duration.ofSeconds(10);
    static final double THRASHING_AT = 0.5;
    public static final int EXIT_STATUS = 70;

    private final LongSupplier nanoTime;
    private final LongSupplier gcMillis;
    private final Duration exitAfter;
    /** Ends the process; none until the process's owner arms it ({@link #exitWith}), so an embedded gateway never ends its host. */
    private volatile Runnable exit = () -> { };
    /** The last beat of each event loop, by name. */
    private final ConcurrentHashMap<String, AtomicLong> beats = new ConcurrentHashMap<>();
    /** Collection time and wall time at the start of the current window. */
    private long windowStartNanos;
    private long windowStartGcMillis;
    private volatile double gcShare;
    /** Since when the process has failed liveness; -1 while it passes. */
    private long failingSinceNanos = -1;
    private volatile Optional<String> problem = Optional.empty();

    /**
     * @param gcMillis  the total time this JVM has spent collecting so far
     * @param exitAfter how long liveness may fail before the process exits; zero never exits
     */
    public Liveness(LongSupplier nanoTime, LongSupplier gcMillis, Duration exitAfter) {
        this.nanoTime = nanoTime;
        this.gcMillis = gcMillis;
        this.exitAfter = exitAfter;
        this.windowStartNanos = nanoTime.getAsLong();
        this.windowStartGcMillis = gcMillis.getAsLong();
    }

    /** What ends the process once it has failed liveness for {@code exitAfter}. */
    public void exitWith(Runnable exit) {
        this.exit = exit;
    }

    /** An event loop named {@code loop} is turning now. */
    public void beat(String loop) {
        beats.computeIfAbsent(loop, name -> new AtomicLong()).set(nanoTime.getAsLong());
    }

    /** A loop that stops on purpose (the gateway closing) is no longer watched. */
    public void forget(String loop) {
        beats.remove(loop);
    }

    /** Why the process fails liveness now; empty while it passes. */
    public Optional<String> problem() {
        return problem;
    }

    /** The share of the last window's time spent collecting, for {@code /metrics}. */
    public double gcShare() {
        return gcShare;
    }

    /** Looks again, once a second, from a thread of its own (the event loops may be the ones blocked). */
    public synchronized void check() {
        long now = nanoTime.getAsLong();
        if (now - windowStartNanos >= GC_WINDOW.toNanos()) {
            long gc = gcMillis.getAsLong();
            gcShare = (gc - windowStartGcMillis) / (double) Duration.ofNanos(now - windowStartNanos).toMillis();
            windowStartNanos = now;
            windowStartGcMillis = gc;
        }
        Optional<String> found = findProblem(now);
        if (found.isPresent() && problem.isEmpty()) {
            log.error("liveness.failing reason=\"{}\"", found.get());
            failingSinceNanos = now;
        } else if (found.isEmpty() && problem.isPresent()) {
            log.info("liveness.recovered");
            failingSinceNanos = -1;
        }
        problem = found;
        if (found.isPresent() && !exitAfter.isZero() && now - failingSinceNanos >= exitAfter.toNanos()) {
            log.error("liveness.exit reason=\"{}\" failing_seconds={}: the process exits so that it is replaced", found.get(),
                    Duration.ofNanos(now - failingSinceNanos).toSeconds());
            exit.run();
        }
    }

    private Optional<String> findProblem(long now) {
        for (var loop : beats.entrySet()) {
            long silent = now - loop.getValue().get();
            if (silent >= BLOCKED_AFTER.toNanos()) {
                return Optional.of("event loop " + loop.getKey() + " blocked for " + Duration.ofNanos(silent).toSeconds() + " s");
            }
        }
        if (gcShare >= THRASHING_AT) {
            return Optional.of(String.format("%.0f %% of the last %d s spent collecting garbage", gcShare * 100,
                    GC_WINDOW.toSeconds()));
        }
        return Optional.empty();
    }
}
