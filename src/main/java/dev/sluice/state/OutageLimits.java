package dev.sluice.state;

import dev.sluice.accounts.limits.Admission;
import dev.sluice.accounts.limits.LimitDecisions;
import dev.sluice.accounts.limits.LimitShare;
import dev.sluice.accounts.limits.LimitSubject;
import dev.sluice.accounts.limits.LimitSubject.Scoped;
import dev.sluice.accounts.limits.Permit;
import dev.sluice.accounts.limits.RateLimits.Usage;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.store.redis.RedisScript;
import dev.sluice.store.redis.ReplicaPresence;
import io.vertx.core.Future;
import io.vertx.redis.client.Response;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.IntSupplier;
import java.util.function.ToLongFunction;

/**
 * Rate limits while Redis cannot answer, and what this replica knows of the shared windows so
 * it can decide them.
 *
 * <h2>Design notes</h2>
 * <b>What is known.</b> For each shared window (a scope's minute) this replica keeps the most
 * Redis last reported of it ({@link #heard}: from its own admissions' answers, and from the
 * counts every admission on any replica publishes), and what it admitted on its own that Redis
 * does not have yet. A minute it heard nothing of is taken as empty, as no replica could have
 * counted in it through a Redis none of them reaches.
 *
 * <p><b>Deciding alone.</b> A request is then admitted while what this replica admitted alone
 * stays under its share of what was left ({@link LimitShare}): the limit less the count heard,
 * divided by the replicas last seen alive, rounded down. Each replica's share of the same
 * remainder, rounded down, adds up to no more than the remainder, so the replicas together admit
 * no more than the limit in the window, however often the link drops and returns within it.
 * What it may not know of is the answers in flight when Redis stopped: requests Redis counted
 * whose counts never arrived.
 *
 * <p><b>Reconciling.</b> What this replica admitted alone is added to the shared windows when
 * Redis answers again ({@link #writeBack}), and the answer to that (published to every replica)
 * brings what is heard up to date; a replica that was away when it was published reads the
 * windows it knows of again when it reconnects ({@link #refresh}). A request whose script went unanswered within the budget, but may have run, is decided
 * here too and held apart until Redis's late answer says whether it counted it: if it did, it
 * is not added again; if it did not, or never answers, it is. One refused here that Redis admitted
 * after all is taken back from the shared count. Counts of a minute Redis no longer
 * keeps are dropped. Thread-safe: one lock over everything.
 */
public final class OutageLimits {
    /*
     * KEYS: windows. ARGV: ttl, then per window the requests and the tokens to add, then the channel counts are published on.
     * Returns, and publishes as the admission script does, per window its requests and tokens.
     */
    private static final RedisScript ADD_COUNTS = new RedisScript("""
            local counts, heard = {}, {}
            for i = 1, #KEYS do
              counts[2 * i - 1] = redis.call('HINCRBY', KEYS[i], 'r', ARGV[2 * i])
              counts[2 * i] = redis.call('HINCRBY', KEYS[i], 't', ARGV[2 * i + 1])
              redis.call('EXPIRE', KEYS[i], ARGV[1])
              heard[i] = KEYS[i] .. ' ' .. counts[2 * i - 1] .. ' ' .. counts[2 * i]
            end
            redis.call('PUBLISH', ARGV[#ARGV], table.concat(heard, '\\n'))
            return counts
            """);

    /* KEYS: windows. Returns per window its requests and tokens. */
    private static final RedisScript READ_COUNTS = new RedisScript("""
            local counts = {}
            for i = 1, #KEYS do
              local used = redis.call('HMGET', KEYS[i], 'r', 't')
              counts[2 * i - 1], counts[2 * i] = tonumber(used[1] or 0), tonumber(used[2] or 0)
            end
            return counts
            """);

    /** What this replica knows of one shared window, and what it counted in it alone. */
    private static final class Window {
        final long minute;
        long heardRequests;
        long heardTokens;
        /** Admitted, or used, here while Redis could not answer; not yet sent to it. */
        long unsentRequests;
        long unsentTokens;
        /** Sent to Redis, not yet answered. */
        long sendingRequests;
        long sendingTokens;
        /** Admitted here while Redis may have counted them too: awaiting its late answer. */
        long awaitedRequests;

        Window(long minute) {
            this.minute = minute;
        }

        Usage countedAlone(long inFlight) {
            return new Usage(unsentRequests + sendingRequests + awaitedRequests, unsentTokens + sendingTokens, inFlight);
        }

        boolean settled() {
            return unsentRequests == 0 && unsentTokens == 0 && sendingRequests == 0 && sendingTokens == 0 && awaitedRequests == 0;
        }
    }

    private final RedisLink link;
    private final IntSupplier replicasSeen;
    private final Clock clock;
    private final BiFunction<Scope, Long, String> windowKey;
    private final long windowSeconds;
    private final ToLongFunction<Scope> openThroughRedis;
    private final String countsChannel;
    private final Map<String, Window> windows = new HashMap<>();
    /** Calls admitted here alone and still open, by scope. */
    private final Map<Scope, Long> openHere = new HashMap<>();
    private long prunedAtMinute = Long.MIN_VALUE;

    /**
     * @param replicasSeen     the replicas last seen alive, this one included ({@link ReplicaPresence})
     * @param windowKey        the shared window of a scope in a minute
     * @param windowSeconds    how long Redis keeps a window
     * @param openThroughRedis how many calls of a scope this replica admitted through Redis that are still open
     */
    OutageLimits(RedisLink link, IntSupplier replicasSeen, Clock clock, BiFunction<Scope, Long, String> windowKey,
            long windowSeconds, ToLongFunction<Scope> openThroughRedis) {
        this.link = link;
        this.replicasSeen = replicasSeen;
        this.clock = clock;
        this.windowKey = windowKey;
        this.windowSeconds = windowSeconds;
        this.openThroughRedis = openThroughRedis;
        this.countsChannel = RateLimitScripts.countsChannel(link);
    }

    /** Redis reported {@code requests} and {@code tokens} in the window {@code key} of {@code minute}. */
    synchronized void heard(String key, long minute, long requests, long tokens) {
        prune(minute);
        Window window = windows.computeIfAbsent(key, k -> new Window(minute));
        window.heardRequests = Math.max(window.heardRequests, requests);
        window.heardTokens = Math.max(window.heardTokens, tokens);
    }

    /** This replica added {@code tokens} to the window {@code key} through Redis. */
    synchronized void addedTokens(String key, long minute, long tokens) {
        windows.computeIfAbsent(key, k -> new Window(minute)).heardTokens += tokens;
    }

    /**
     * Decides {@code subject} at {@code now} on this replica's share of what was left.
     *
     * @param countedInRedis when the request's script was sent but not answered in time: completes
     *                       with whether Redis counted it after all (failed: never known); else null
     */
    Admission admit(LimitSubject subject, Instant now, Future<Boolean> countedInRedis) {
        List<Scoped> limited = subject.limited();
        long minute = LimitDecisions.minuteOf(now);
        List<String> keys = new ArrayList<>(limited.size());
        Admission.Admitted admitted;
        synchronized (this) {
            int replicas = replicasSeen.getAsInt();
            List<Scoped> shares = new ArrayList<>(limited.size());
            List<Usage> used = new ArrayList<>(limited.size());
            for (Scoped scoped : limited) {
                String key = windowKey.apply(scoped.scope(), minute);
                Window window = window(key, minute);
                keys.add(key);
                shares.add(new Scoped(scoped.scope(), LimitShare.of(scoped.limits(), window.heardRequests, window.heardTokens,
                        replicas)));
                used.add(window.countedAlone(openHere.getOrDefault(scoped.scope(), 0L) + openThroughRedis.applyAsLong(scoped.scope())));
            }
            if (!LimitDecisions.admits(shares, used)) {
                if (countedInRedis != null) {
                    // Redis may still admit it, and count a request this replica refused: take that back.
                    countedInRedis.onComplete(counted -> {
                        if (counted.succeeded() && counted.result()) {
                            uncount(keys);
                        }
                    });
                }
                return LimitDecisions.refusal(shares, used, now);
            }
            List<Usage> after = new ArrayList<>(limited.size());
            for (int i = 0; i < limited.size(); i++) {
                Window window = windows.get(keys.get(i));
                if (countedInRedis == null) {
                    window.unsentRequests++;
                } else {
                    window.awaitedRequests++;
                }
                openHere.merge(limited.get(i).scope(), 1L, Long::sum);
                Usage before = used.get(i);
                after.add(new Usage(before.requests() + 1, before.tokens(), before.inFlight() + 1));
            }
            Permit permit = new Permit((tokens, at) -> ended(limited, tokens, at), clock);
            admitted = new Admission.Admitted(permit, LimitDecisions.headers(shares, after, now));
        }
        if (countedInRedis != null) {
            countedInRedis.onComplete(counted -> settle(keys, counted.succeeded() && counted.result()));
        }
        return admitted;
    }

    /** Redis said (or can no longer say) whether it counted a request this replica admitted alone. */
    private void settle(List<String> keys, boolean countedThere) {
        synchronized (this) {
            for (String key : keys) {
                Window window = windows.get(key);
                if (window == null) {
                    continue; // a minute Redis no longer keeps
                }
                window.awaitedRequests--;
                if (!countedThere) {
                    window.unsentRequests++;
                }
            }
        }
        if (link.isUp()) {
            writeBack();
        }
    }

    /** Redis counted a request this replica refused: the count is taken back with the next write-back. */
    private void uncount(List<String> keys) {
        synchronized (this) {
            for (String key : keys) {
                Window window = windows.get(key);
                if (window != null) {
                    window.unsentRequests--;
                }
            }
        }
        if (link.isUp()) {
            writeBack();
        }
    }

    /** A call admitted here alone ended having used {@code tokens}: they count in the shared windows too. */
    private void ended(List<Scoped> limited, long tokens, Instant at) {
        long minute = LimitDecisions.minuteOf(at);
        synchronized (this) {
            for (Scoped scoped : limited) {
                openHere.computeIfPresent(scoped.scope(), (scope, open) -> open <= 1 ? null : open - 1);
                if (tokens > 0 && scoped.limits().tpm().isPresent()) {
                    window(windowKey.apply(scoped.scope(), minute), minute).unsentTokens += tokens;
                }
            }
        }
        if (link.isUp()) {
            writeBack();
        }
    }

    private Window window(String key, long minute) {
        prune(minute);
        return windows.computeIfAbsent(key, k -> new Window(minute));
    }

    /** Drops what is known of minutes past, once a later one is in use: settled ones at once, the rest once Redis no longer keeps them. */
    private void prune(long minute) {
        if (minute <= prunedAtMinute) {
            return;
        }
        prunedAtMinute = minute;
        long kept = minute - windowSeconds / 60 + 1;
        windows.values().removeIf(window -> window.minute < kept || (window.minute < minute && window.settled()));
    }

    /**
     * Reads again the current minute's windows this replica knows of: counts published while it
     * was away (another replica's write-back, say) did not reach it.
     */
    void refresh() {
        long minute = LimitDecisions.minuteOf(clock.instant());
        List<String> keys = new ArrayList<>();
        synchronized (this) {
            windows.forEach((key, window) -> {
                if (window.minute == minute) {
                    keys.add(key);
                }
            });
        }
        if (keys.isEmpty()) {
            return;
        }
        READ_COUNTS.run(link, keys, List.of()).onSuccess(reply -> {
            for (int i = 0; i < keys.size(); i++) {
                heard(keys.get(i), minute, reply.get(2 * i).toLong(), reply.get(2 * i + 1).toLong());
            }
        });
    }

    /** The most Redis reported of the requests in window {@code key}: 0 when nothing was heard. */
    synchronized long heardRequests(String key) {
        Window window = windows.get(key);
        return window == null ? 0 : window.heardRequests;
    }

    /**
     * Adds what this replica admitted on its own to the shared windows Redis still keeps. Sent
     * once; when Redis fails to take them, they are kept for its return.
     */
    void writeBack() {
        List<String> keys = new ArrayList<>();
        List<long[]> sent = new ArrayList<>();
        List<String> args = new ArrayList<>();
        args.add(Long.toString(windowSeconds));
        synchronized (this) {
            prune(LimitDecisions.minuteOf(clock.instant()));
            windows.forEach((key, window) -> {
                if (window.unsentRequests == 0 && window.unsentTokens == 0) {
                    return;
                }
                keys.add(key);
                sent.add(new long[] {window.unsentRequests, window.unsentTokens});
                args.add(Long.toString(window.unsentRequests));
                args.add(Long.toString(window.unsentTokens));
                window.sendingRequests += window.unsentRequests;
                window.sendingTokens += window.unsentTokens;
                window.unsentRequests = 0;
                window.unsentTokens = 0;
            });
        }
        if (keys.isEmpty()) {
            return;
        }
        args.add(countsChannel);
        ADD_COUNTS.run(link, keys, args).onComplete(reply -> written(keys, sent, reply.succeeded() ? reply.result() : null));
    }

    /** Redis took the counts {@code sent} (its {@code reply} the windows' counts now), or did not ({@code reply} null). */
    private synchronized void written(List<String> keys, List<long[]> sent, Response reply) {
        for (int i = 0; i < keys.size(); i++) {
            Window window = windows.get(keys.get(i));
            if (window == null) {
                continue;
            }
            long[] counts = sent.get(i);
            window.sendingRequests -= counts[0];
            window.sendingTokens -= counts[1];
            if (reply == null) {
                window.unsentRequests += counts[0];
                window.unsentTokens += counts[1];
            } else {
                window.heardRequests = Math.max(window.heardRequests, reply.get(2 * i).toLong());
                window.heardTokens = Math.max(window.heardTokens, reply.get(2 * i + 1).toLong());
            }
        }
    }
}
