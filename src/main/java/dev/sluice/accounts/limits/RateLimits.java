package dev.sluice.accounts.limits;

import dev.sluice.accounts.limits.Admission.Admitted;
import dev.sluice.accounts.limits.Admission.Refused;
import dev.sluice.accounts.limits.LimitSubject.Scoped;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Admits or refuses requests, in this process, by the rate limits of their key, their team and their key's
 * model group: {@code rpm_limit}, {@code tpm_limit} and {@code max_parallel_requests}
 * (and {@code model_rpm_limit}, {@code model_tpm_limit} per group). Exact under any
 * concurrency: with {@code rpm_limit: 10}, ten of fifty simultaneous requests are admitted.
 *
 * <h2>Design notes</h2>
 * <b>Windows.</b> {@code rpm} and {@code tpm} count per calendar minute in UTC, from
 * {@code hh:mm:00.000} (inclusive) to the next {@code :00} (exclusive): the window LiteLLM's
 * limiter keyed its counts by, and the one the router's deployment {@code rpm}/{@code tpm}
 * use. A fixed minute is exact and costs three numbers per scope; its known weakness is
 * that a client can spend one minute's limit at its end and the next one's at the start of
 * the next. A sliding window would smooth that but could not say, as the headers and
 * {@code Retry-After} do, when the limit will admit again.
 *
 * <p><b>What is counted when.</b> A request counts towards {@code rpm} when admitted. Its
 * tokens count towards {@code tpm} when its {@link Permit} is released, in the minute it is
 * released in; {@code tpm} admits while the tokens of the current minute are below the
 * limit, so a call in progress is not charged ahead of time (LiteLLM does the same). A call
 * is in flight from admission to release. {@code rpm_limit: N} admits while fewer than N
 * requests were admitted this minute; {@code max_parallel_requests: N} while fewer than N
 * are in flight.
 *
 * <p><b>All or nothing.</b> Each scope's counts sit behind one lock. An admission takes the
 * locks of every limited scope of its request (key, then the key's model group, then the
 * team; the same order for everyone, so no two admissions can wait on each other), checks
 * every limit, and only if all of them admit does it count the request in each. A refused
 * request therefore consumes nothing: refusing it on the team's limit does not spend the
 * key's. (LiteLLM counts first and checks after, so its refused requests use up the limit.)
 * A request with no limits takes no lock and gets empty headers.
 *
 * <p><b>Which refusal.</b> When several limits refuse, the one reported is the one that
 * will take longest to admit again, so {@code Retry-After} is never too early
 * ({@link LimitDecisions}, shared with the replicas' store).
 *
 * <p>One small meter is kept per scope that has ever had a limit; {@link #forget} drops one
 * when its key or team is deleted. All times come from the caller or the injected clock.
 */
public final class RateLimits implements RateLimiter {

    /**
     * The {@code Retry-After} of a {@code max_parallel_requests} refusal: a permit comes free
     * whenever one of the calls in flight ends, which no clock can tell.
     */
    public static final Duration PARALLEL_RETRY_AFTER = Duration.ofSeconds(1);

    /** What a scope has used: requests and tokens of the current minute, and calls in flight. */
    public record Usage(long requests, long tokens, long inFlight) {
        public static final Usage NONE = new Usage(0, 0, 0);
    }

    private final Clock clock;
    private final ConcurrentMap<Scope, MinuteMeter> meters = new ConcurrentHashMap<>();

    /** @param clock when permits are released, which decides the minute their tokens count in */
    public RateLimits(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Future<Admission> check(LimitSubject subject, Instant now) {
        return Future.succeededFuture(admit(subject, now));
    }

    /** Decides whether the request {@code subject} describes may start at {@code now}. */
    public Admission admit(LimitSubject subject, Instant now) {
        List<Scoped> limited = subject.limited();
        if (limited.isEmpty()) {
            return new Admitted(new Permit((tokens, at) -> {}, clock), RateLimitHeaders.NONE);
        }
        List<MinuteMeter> held = new ArrayList<>(limited.size());
        for (Scoped scoped : limited) {
            held.add(meters.computeIfAbsent(scoped.scope(), scope -> new MinuteMeter()));
        }
        long minute = LimitDecisions.minuteOf(now);
        int locked = 0;
        try {
            List<Usage> used = new ArrayList<>(held.size());
            for (MinuteMeter meter : held) {
                meter.lock();
                locked++;
                meter.moveTo(minute);
                used.add(meter.usageHeld());
            }
            if (!LimitDecisions.admits(limited, used)) {
                return LimitDecisions.refusal(limited, used, now);
            }
            used.clear();
            for (MinuteMeter meter : held) {
                meter.admit();
                used.add(meter.usageHeld());
            }
            List<MinuteMeter> admittedTo = List.copyOf(held);
            Permit permit = new Permit((tokens, at) -> {
                long endMinute = LimitDecisions.minuteOf(at);
                for (MinuteMeter meter : admittedTo) {
                    meter.end(tokens, endMinute);
                }
            }, clock);
            return new Admitted(permit, LimitDecisions.headers(limited, used, now));
        } finally {
            for (int i = locked - 1; i >= 0; i--) {
                held.get(i).unlock();
            }
        }
    }

    /** What {@code scope} has used at {@code now}: {@link Usage#NONE} for a scope never limited. */
    public Usage usage(Scope scope, Instant now) {
        MinuteMeter meter = meters.get(scope);
        return meter == null ? Usage.NONE : meter.usage(LimitDecisions.minuteOf(now));
    }

    /**
     * Drops the counts of a deleted key or team. Calls already admitted release into the
     * dropped meter and change nothing; a later request for the scope starts from zero.
     */
    public void forget(Scope scope) {
        meters.remove(scope);
    }

    /** A positive duration in whole seconds, rounded up; at least 1. */
    public static long wholeSecondsUp(Duration duration) {
        long seconds = duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }
}
