package dev.sluice.state.redis;

import dev.sluice.limits.Admission;
import dev.sluice.limits.LimitDecisions;
import dev.sluice.limits.LimitSubject;
import dev.sluice.limits.LimitSubject.Scoped;
import dev.sluice.limits.Permit;
import dev.sluice.limits.RateLimits;
import dev.sluice.limits.Scope;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Rate limits while Redis cannot answer. This replica decides on its own counts
 * ({@link RateLimits}) at its share of each limit: the limit divided by the replicas it last
 * saw alive ({@link ReplicaPresence}), so N replicas together admit about the limit rather
 * than N times it. What it admits, and the tokens of those calls, are kept by minute and
 * added to the shared counts when Redis answers again, so the minute's counts in Redis are
 * whole and the replicas do not start the rest of it from nothing. Counts of a minute Redis
 * no longer keeps (two minutes on) are dropped. Thread-safe.
 */
final class OutageLimits {
    /* KEYS: windows. ARGV: ttl, then per window the requests and the tokens to add. */
    private static final RedisScript ADD_COUNTS = new RedisScript("""
            for i = 1, #KEYS do
              redis.call('HINCRBY', KEYS[i], 'r', ARGV[2 * i])
              redis.call('HINCRBY', KEYS[i], 't', ARGV[2 * i + 1])
              redis.call('EXPIRE', KEYS[i], ARGV[1])
            end
            return 1
            """);

    /** What this replica admitted on its own in one window. */
    private static final class Unshared {
        final long minute;
        long requests;
        long tokens;

        Unshared(long minute) {
            this.minute = minute;
        }
    }

    private final RedisLink link;
    private final RateLimits local;
    private final ReplicaPresence presence;
    private final Clock clock;
    private final BiFunction<Scope, Long, String> windowKey;
    private final long windowSeconds;
    private final Map<String, Unshared> unshared = new HashMap<>();

    /**
     * @param windowKey     the shared window of a scope in a minute
     * @param windowSeconds how long Redis keeps a window
     */
    OutageLimits(RedisLink link, RateLimits local, ReplicaPresence presence, Clock clock,
            BiFunction<Scope, Long, String> windowKey, long windowSeconds) {
        this.link = link;
        this.local = local;
        this.presence = presence;
        this.clock = clock;
        this.windowKey = windowKey;
        this.windowSeconds = windowSeconds;
    }

    /** Decides {@code subject} at {@code now} on this replica's counts, at its share of the limits. */
    Admission admit(LimitSubject subject, Instant now) {
        Admission decided = local.admit(subject.shareOf(presence.replicasSeen()), now);
        if (!(decided instanceof Admission.Admitted admitted)) {
            return decided;
        }
        List<Scoped> limited = subject.limited();
        long minute = LimitDecisions.minuteOf(now);
        synchronized (unshared) {
            for (Scoped scoped : limited) {
                window(scoped.scope(), minute).requests++;
            }
        }
        Permit permit = new Permit((tokens, at) -> {
            admitted.permit().release(tokens);
            counted(limited, tokens, LimitDecisions.minuteOf(at));
        }, clock);
        return new Admission.Admitted(permit, admitted.headers());
    }

    /** A call admitted here ended having used {@code tokens}: they count in the shared windows too. */
    private void counted(List<Scoped> limited, long tokens, long minute) {
        if (tokens > 0) {
            synchronized (unshared) {
                for (Scoped scoped : limited) {
                    if (scoped.limits().tpm().isPresent()) {
                        window(scoped.scope(), minute).tokens += tokens;
                    }
                }
            }
        }
        if (link.isUp()) {
            writeBack();
        }
    }

    private Unshared window(Scope scope, long minute) {
        return unshared.computeIfAbsent(windowKey.apply(scope, minute), key -> new Unshared(minute));
    }

    /**
     * Adds what this replica admitted on its own to the shared windows Redis still keeps. Sent
     * once; when Redis fails to take them, they are kept for its return.
     */
    void writeBack() {
        long oldest = LimitDecisions.minuteOf(clock.instant()) - windowSeconds / 60 + 1;
        Map<String, Unshared> due = new HashMap<>();
        synchronized (unshared) {
            unshared.forEach((key, counts) -> {
                if (counts.minute >= oldest) {
                    due.put(key, counts);
                }
            });
            unshared.clear();
        }
        if (due.isEmpty()) {
            return;
        }
        List<String> keys = new ArrayList<>(due.size());
        List<String> args = new ArrayList<>(1 + 2 * due.size());
        args.add(Long.toString(windowSeconds));
        due.forEach((key, counts) -> {
            keys.add(key);
            args.add(Long.toString(counts.requests));
            args.add(Long.toString(counts.tokens));
        });
        ADD_COUNTS.run(link, keys, args).onFailure(e -> {
            synchronized (unshared) {
                due.forEach((key, counts) -> unshared.merge(key, counts, (kept, back) -> {
                    kept.requests += back.requests;
                    kept.tokens += back.tokens;
                    return kept;
                }));
            }
        });
    }
}
