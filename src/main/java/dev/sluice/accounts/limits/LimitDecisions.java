package dev.sluice.accounts.limits;

import dev.sluice.accounts.limits.Admission.Refused;
import dev.sluice.accounts.limits.LimitSubject.Scoped;
import dev.sluice.accounts.limits.RateLimits.Usage;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a rate-limit decision says, worked out from the counts of each limited scope, wherever
 * those counts are kept: which limit refuses (the one that waits longest, so
 * {@code Retry-After} is never too early; among equals the first by scope order, then
 * requests before tokens before parallel), its message in LiteLLM's wording, and the
 * {@code x-ratelimit-*} headers. See {@link RateLimits} for the windows.
 */
public final class LimitDecisions {

    private static final DateTimeFormatter RESET_AT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private LimitDecisions() {}

    /** The calendar minute (UTC) an instant falls in, counted from the epoch. */
    public static long minuteOf(Instant at) {
        return Math.floorDiv(at.getEpochSecond(), 60);
    }

    /**
     * Whether every limit of {@code limited} admits one more request, given what each scope
     * has {@code used} (the same order). A limit of N admits while fewer than N are used.
     */
    public static boolean admits(List<Scoped> limited, List<Usage> used) {
        for (int i = 0; i < limited.size(); i++) {
            Limits limits = limited.get(i).limits();
            for (LimitKind kind : LimitKind.values()) {
                OptionalLong limit = limits.of(kind);
                if (limit.isPresent() && used(used.get(i), kind) >= limit.getAsLong()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The refusal of a request at {@code now} by the counts before it, or null when every limit admits. */
    public static Refused refusal(List<Scoped> limited, List<Usage> used, Instant now) {
        Instant nextMinute = Instant.ofEpochSecond((minuteOf(now) + 1) * 60);
        Duration untilNextMinute = Duration.between(now, nextMinute);
        Scoped refusing = null;
        LimitKind refusingKind = null;
        Duration longest = Duration.ZERO;
        for (int i = 0; i < limited.size(); i++) {
            Scoped scoped = limited.get(i);
            for (LimitKind kind : LimitKind.values()) {
                OptionalLong limit = scoped.limits().of(kind);
                if (limit.isEmpty() || used(used.get(i), kind) < limit.getAsLong()) {
                    continue;
                }
                Duration wait = kind == LimitKind.PARALLEL ? RateLimits.PARALLEL_RETRY_AFTER : untilNextMinute;
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
        return new Refused(refusing.scope(), refusingKind, limit, reason(refusing.scope(), refusingKind, limit, nextMinute),
                longest, headers(limited, used, now));
    }

    /** The headers describing the counts {@code used} as they stand at {@code now}. */
    public static RateLimitHeaders headers(List<Scoped> limited, List<Usage> used, Instant now) {
        Instant nextMinute = Instant.ofEpochSecond((minuteOf(now) + 1) * 60);
        String reset = Long.toString(RateLimits.wholeSecondsUp(Duration.between(now, nextMinute)));
        Map<String, String> values = new LinkedHashMap<>();
        tightest(limited, used, LimitKind.REQUESTS, values, reset);
        tightest(limited, used, LimitKind.TOKENS, values, reset);
        for (int i = 0; i < limited.size(); i++) {
            Scoped scoped = limited.get(i);
            for (LimitKind kind : LimitKind.values()) {
                OptionalLong limit = scoped.limits().of(kind);
                if (limit.isPresent()) {
                    values.put(RateLimitHeaders.scoped(scoped.scope(), "limit", kind), Long.toString(limit.getAsLong()));
                    values.put(RateLimitHeaders.scoped(scoped.scope(), "remaining", kind),
                            Long.toString(remaining(limit.getAsLong(), used(used.get(i), kind))));
                }
            }
        }
        return new RateLimitHeaders(values);
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

    /** Writes the OpenAI-style headers of one kind from the scope with the fewest remaining. */
    /** The unscoped headers of requests or tokens: those of the scope with the least remaining. */
    private static void tightest(List<Scoped> limited, List<Usage> used, LimitKind kind, Map<String, String> values, String reset) {
        long bestLimit = -1;
        long bestRemaining = Long.MAX_VALUE;
        for (int i = 0; i < limited.size(); i++) {
            OptionalLong limit = limited.get(i).limits().of(kind);
            if (limit.isEmpty()) {
                continue;
            }
            long remaining = remaining(limit.getAsLong(), used(used.get(i), kind));
            if (remaining < bestRemaining) {
                bestRemaining = remaining;
                bestLimit = limit.getAsLong();
            }
        }
        if (bestLimit >= 0) {
            boolean requests = kind == LimitKind.REQUESTS;
            values.put(requests ? RateLimitHeaders.LIMIT_REQUESTS : RateLimitHeaders.LIMIT_TOKENS, Long.toString(bestLimit));
            values.put(requests ? RateLimitHeaders.REMAINING_REQUESTS : RateLimitHeaders.REMAINING_TOKENS,
                    Long.toString(bestRemaining));
            values.put(requests ? RateLimitHeaders.RESET_REQUESTS : RateLimitHeaders.RESET_TOKENS, reset);
        }
    }

    private static long used(Usage usage, LimitKind kind) {
        return switch (kind) {
            case REQUESTS -> usage.requests();
            case TOKENS -> usage.tokens();
            case PARALLEL -> usage.inFlight();
        };
    }

    private static long remaining(long limit, long used) {
        return Math.max(0, limit - used);
    }
}
