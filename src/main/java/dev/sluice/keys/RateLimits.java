package dev.sluice.keys;

import dev.sluice.keys.Admission.Admitted;
import dev.sluice.keys.Admission.Refused;
import dev.sluice.keys.LimitSubject.Scoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Admits or refuses requests by the rate limits of their key, their team and their key's
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
 * will take longest to admit again, so {@code Retry-After} is never too early; among equals,
 * the first by scope order, then requests before tokens before parallel.
 *
 * <p>One small meter is kept per scope that has ever had a limit; {@link #forget} drops one
 * when its key or team is deleted. All times come from the caller or the injected clock.
 */
public final class RateLimits {

    /**
     * The {@code Retry-After} of a {@code max_parallel_requests} refusal: a permit comes free
     * whenever one of the calls in flight ends, which no clock can tell.
     */
    public static final Duration PARALLEL_RETRY_AFTER = Duration.ofSeconds(1);

    private static final DateTimeFormatter RESET_AT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

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

    /** Decides whether the request {@code subject} describes may start at {@code now}. */
    public Admission admit(LimitSubject subject, Instant now) {
        List<Scoped> limited = subject.limited();
        if (limited.isEmpty()) {
            return new Admitted(new Permit(List.of(), clock), RateLimitHeaders.NONE);
        }
        List<MinuteMeter> held = new ArrayList<>(limited.size());
        for (Scoped scoped : limited) {
            held.add(meters.computeIfAbsent(scoped.scope(), scope -> new MinuteMeter()));
        }
        long minute = MinuteMeter.minuteOf(now);
        Instant nextMinute = Instant.ofEpochSecond((minute + 1) * 60);
        Duration untilNextMinute = Duration.between(now, nextMinute);
        int locked = 0;
        try {
            for (MinuteMeter meter : held) {
                meter.lock();
                locked++;
                meter.moveTo(minute);
            }
            Refused refused = refusal(limited, held, nextMinute, untilNextMinute);
            if (refused != null) {
                return refused;
            }
            for (MinuteMeter meter : held) {
                meter.admit();
            }
            return new Admitted(new Permit(held, clock), headers(limited, held, untilNextMinute));
        } finally {
            for (int i = locked - 1; i >= 0; i--) {
                held.get(i).unlock();
            }
        }
    }

    /** What {@code scope} has used at {@code now}: {@link Usage#NONE} for a scope never limited. */
    public Usage usage(Scope scope, Instant now) {
        MinuteMeter meter = meters.get(scope);
        return meter == null ? Usage.NONE : meter.usage(MinuteMeter.minuteOf(now));
    }

    /**
     * Drops the counts of a deleted key or team. Calls already admitted release into the
     * dropped meter and change nothing; a later request for the scope starts from zero.
     */
    public void forget(Scope scope) {
        meters.remove(scope);
    }

    /** Under the locks: the refusal that waits longest, or null when every limit admits. */
    private static Refused refusal(List<Scoped> limited, List<MinuteMeter> held, Instant nextMinute,
            Duration untilNextMinute) {
        Scoped refusing = null;
        LimitKind refusingKind = null;
        Duration longest = Duration.ZERO;
        for (int i = 0; i < limited.size(); i++) {
            Scoped scoped = limited.get(i);
            for (LimitKind kind : LimitKind.values()) {
                OptionalLong limit = scoped.limits().of(kind);
                if (limit.isEmpty() || held.get(i).used(kind) < limit.getAsLong()) {
                    continue;
                }
                Duration wait = kind == LimitKind.PARALLEL ? PARALLEL_RETRY_AFTER : untilNextMinute;
                if (wait.compareTo(longest) > 0) {
                    refusing = scoped;
                    refusingKind = kind;
                    longest = wait;
                }
            }
        }
        if (refusing == null) {
            return null;
        }
        long limit = refusing.limits().of(refusingKind).getAsLong();
        return new Refused(refusing.scope(), refusingKind, limit,
                reason(refusing.scope(), refusingKind, limit, nextMinute), longest,
                headers(limited, held, untilNextMinute));
    }

    /** LiteLLM's wording of a refusal, e.g. {@code Rate limit exceeded for api_key: 3f2a.... Limit type: requests. ...}. */
    private static String reason(Scope scope, LimitKind kind, long limit, Instant nextMinute) {
        String reason = "Rate limit exceeded for " + scope.descriptor() + ": " + scope.value() + ". Limit type: "
                + kind.litellmName() + ". Current limit: " + limit + ", Remaining: 0.";
        if (kind == LimitKind.PARALLEL) {
            return reason;
        }
        return reason + " Limit resets at: " + RESET_AT.format(nextMinute);
    }

    /** Under the locks: the headers describing the counts as they now stand. */
    private static RateLimitHeaders headers(List<Scoped> limited, List<MinuteMeter> held, Duration untilNextMinute) {
        Map<String, String> values = new LinkedHashMap<>();
        String reset = Long.toString(wholeSecondsUp(untilNextMinute));
        tightest(limited, held, LimitKind.REQUESTS, values,
                RateLimitHeaders.LIMIT_REQUESTS, RateLimitHeaders.REMAINING_REQUESTS, RateLimitHeaders.RESET_REQUESTS, reset);
        tightest(limited, held, LimitKind.TOKENS, values,
                RateLimitHeaders.LIMIT_TOKENS, RateLimitHeaders.REMAINING_TOKENS, RateLimitHeaders.RESET_TOKENS, reset);
        for (int i = 0; i < limited.size(); i++) {
            Scoped scoped = limited.get(i);
            for (LimitKind kind : LimitKind.values()) {
                OptionalLong limit = scoped.limits().of(kind);
                if (limit.isPresent()) {
                    values.put(RateLimitHeaders.scoped(scoped.scope(), "limit", kind), Long.toString(limit.getAsLong()));
                    values.put(RateLimitHeaders.scoped(scoped.scope(), "remaining", kind),
                            Long.toString(remaining(limit.getAsLong(), held.get(i).used(kind))));
                }
            }
        }
        return new RateLimitHeaders(values);
    }

    /** Writes the OpenAI-style headers of one kind from the scope with the fewest remaining. */
    private static void tightest(List<Scoped> limited, List<MinuteMeter> held, LimitKind kind, Map<String, String> values,
            String limitHeader, String remainingHeader, String resetHeader, String reset) {
        long bestLimit = -1;
        long bestRemaining = Long.MAX_VALUE;
        for (int i = 0; i < limited.size(); i++) {
            OptionalLong limit = limited.get(i).limits().of(kind);
            if (limit.isEmpty()) {
                continue;
            }
            long remaining = remaining(limit.getAsLong(), held.get(i).used(kind));
            if (remaining < bestRemaining) {
                bestRemaining = remaining;
                bestLimit = limit.getAsLong();
            }
        }
        if (bestLimit >= 0) {
            values.put(limitHeader, Long.toString(bestLimit));
            values.put(remainingHeader, Long.toString(bestRemaining));
            values.put(resetHeader, reset);
        }
    }

    private static long remaining(long limit, long used) {
        return Math.max(0, limit - used);
    }

    /** A positive duration in whole seconds, rounded up; at least 1. */
    static long wholeSecondsUp(Duration duration) {
        long seconds = duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }
}
