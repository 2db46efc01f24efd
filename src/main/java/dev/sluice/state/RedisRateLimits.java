package dev.sluice.state;

import dev.sluice.accounts.limits.Admission;
import dev.sluice.accounts.limits.LimitDecisions;
import dev.sluice.accounts.limits.LimitKind;
import dev.sluice.accounts.limits.LimitSubject;
import dev.sluice.accounts.limits.LimitSubject.Scoped;
import dev.sluice.accounts.limits.Permit;
import dev.sluice.accounts.limits.RateLimitHeaders;
import dev.sluice.accounts.limits.RateLimiter;
import dev.sluice.accounts.limits.RateLimits;
import dev.sluice.accounts.limits.RateLimits.Usage;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.store.redis.GatheredWrites;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.store.redis.ReplicaPresence;
import dev.sluice.time.PeriodicJob;
import dev.sluice.time.Scheduler;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rate limits of keys, teams and a key's model groups, counted in the Redis the replicas
 * share, so {@code rpm_limit: 10} admits ten requests a minute across all of them, whichever
 * replica each one reaches.
 *
 * <h2>Design notes</h2>
 * <b>One script decides.</b> An admission is one Lua script over every limited scope of the
 * request: it reads each scope's counts, and only if every limit admits does it count the
 * request in each. Redis runs scripts one at a time, so the decision is all or nothing and
 * exact whatever the concurrency across replicas, as {@link RateLimits} is within one. The
 * windows are the same calendar minutes ({@code <prefix>limits:<scope>:<minute>}, a hash of
 * requests and tokens that expires two minutes on), read off this replica's clock; replicas
 * keep their clocks in step (NTP). The script answers with the counts, from which
 * {@link LimitDecisions} words the refusal and the headers exactly as in one process.
 *
 * <p><b>Calls in flight are leased.</b> A scope with {@code max_parallel_requests} keeps its
 * open calls as a sorted set of permit ids, each scored with the time its lease runs out
 * ({@link #LEASE}); the script drops lapsed ones before it counts. This replica renews the
 * leases of its open calls every {@link #RENEW_EVERY}, so a long stream keeps its place while
 * a crashed replica's calls stop counting one lease after it died. When the link comes back
 * after an outage (or Redis restarted and lost them), it writes every open call's lease again.
 * A permit still open after {@link #MAX_LEASE_LIFE} is taken for one whose release was lost,
 * and is no longer renewed.
 *
 * <p><b>Releases</b> add the call's tokens to the minute it ended in and drop its lease, in one
 * script sent without waiting for the answer. Tokens of calls that hold no lease are gathered
 * for a few milliseconds ({@link GatheredWrites}) and added together, one script for all of them.
 *
 * <p><b>Every replica hears every count.</b> The script publishes the counts it leaves on
 * {@code <prefix>limits:counts}, so each replica knows each window as of the last admission
 * anywhere, not only as of its own ({@link OutageLimits#heard}).
 *
 * <p><b>Redis trouble never refuses a request, and never multiplies a limit.</b> When the link
 * is down, or the script does not answer within the link's budget, this replica decides alone
 * at its share of what was left of each window among the replicas it last saw alive, and
 * writes what it admitted back to the shared counts when Redis returns ({@link OutageLimits}).
 * A script that timed out may still have counted its request in Redis: its late answer says
 * whether it did, so the request is written back only if not, and a lease it took is dropped
 * once it is known to have been taken. A release that cannot reach Redis loses its tokens for
 * the shared {@code tpm}, and its lease runs out on its own.
 */
public final class RedisRateLimits implements RateLimiter, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger("dev.sluice.state");

    /** How long a call in flight holds its place in a shared {@code max_parallel_requests} without renewal. */
    public static final Duration LEASE = Duration.ofSeconds(15);
    /** How often this replica renews the leases of its calls in flight. */
    static final Duration RENEW_EVERY = Duration.ofSeconds(3);
    /** A call still holding its place this long after admission is taken for one whose release was lost. */
    static final Duration MAX_LEASE_LIFE = Duration.ofHours(1);
    /** How long a minute's counts are kept: past their minute, and a minute for late token releases. */
    private static final long WINDOW_SECONDS = 120;

    private final RedisLink link;
    private final Clock clock;
    private final String keyPrefix;
    /** Permit id → the in-flight sets it holds a lease in, for the calls of this replica still open. */
    private final ConcurrentMap<String, Lease> leases = new ConcurrentHashMap<>();
    private final Duration lease;
    private final Duration maxLeaseLife;

    /** The in-flight sets a call holds a place in, and when it took them (this store's clock). */
    private record Lease(List<String> keys, long takenAtMillis) {}
    /** The job {@code limit-leases}: renews the leases, and is asked to restore them when the link comes back. */
    private final PeriodicJob renewer;
    private final AtomicLong decidedLocally = new AtomicLong();
    private final ReplicaPresence presence;
    private final OutageLimits outage;
    /** Permit ids are this store's id and a count: unique across replicas without a random draw per call. */
    private final String origin = UUID.randomUUID() + ":";
    private final AtomicLong permits = new AtomicLong();
    /** Where every admission publishes the counts it leaves. */
    private final String countsChannel;
    /** Tokens of released calls not yet sent, by window key. */
    private final GatheredWrites<Long> unsentTokens;

    /**
     * Registers on {@code link}; create it before the link starts. Leases are dated on
     * {@code clock} and renewed as the job {@code limit-leases} of {@code jobs}, on its time.
     */
    public RedisRateLimits(RedisLink link, Clock clock, Scheduler jobs) {
        this(link, clock, jobs, LEASE, RENEW_EVERY, MAX_LEASE_LIFE);
    }

    RedisRateLimits(RedisLink link, Clock clock, Scheduler jobs, Duration lease, Duration renewEvery, Duration maxLeaseLife) {
        if (!lease.minus(renewEvery).isPositive()) {
            throw new IllegalArgumentException("lease: " + lease + " (expected: longer than the renewal, " + renewEvery + ")");
        }
        this.link = link;
        this.clock = clock;
        this.lease = lease;
        this.maxLeaseLife = maxLeaseLife;
        this.keyPrefix = link.prefix() + "limits:";
        this.unsentTokens = new GatheredWrites<>(link, Long::sum, this::sendTokens);
        this.presence = link.presence();
        this.countsChannel = RateLimitScripts.countsChannel(link);
        this.outage = new OutageLimits(link, presence::replicasSeen, clock, this::windowKey, WINDOW_SECONDS, this::openThroughRedis);
        link.subscribe(countsChannel, this::heard);
        this.renewer = jobs.periodic("limit-leases", renewEvery, this::renewLeases, this::restoreLeases);
        // Leases may have lapsed while Redis was away, or gone with a restarted Redis: write them all again,
        // and add what this replica admitted on its own meanwhile to the shared counts.
        link.onUp(renewer::ask);
    }

    private void restoreLeases() {
        try {
            outage.writeBack();
            outage.refresh();
            writeLeases(clock.millis(), false);
        } catch (RuntimeException e) {
            log.warn("limits.lease_restore_failed reason={}", e.toString());
        }
    }

    @Override
    public Future<Admission> check(LimitSubject subject, Instant now) {
        List<Scoped> limited = subject.limited();
        if (limited.isEmpty() || !link.isUp()) {
            return localCheck(subject, now, limited, null);
        }
        String permitId = origin + permits.incrementAndGet();
        long minute = LimitDecisions.minuteOf(now);
        List<String> keys = new ArrayList<>(limited.size() * 2);
        List<String> args = new ArrayList<>(4 + limited.size() * 3);
        args.add(Long.toString(now.toEpochMilli()));
        args.add(Long.toString(now.plus(lease).toEpochMilli()));
        args.add(permitId);
        args.add(Long.toString(WINDOW_SECONDS));
        List<String> leased = new ArrayList<>(1);
        for (Scoped scoped : limited) {
            keys.add(windowKey(scoped.scope(), minute));
            keys.add(inFlightKey(scoped.scope()));
            for (LimitKind kind : LimitKind.values()) {
                args.add(Long.toString(scoped.limits().of(kind).orElse(-1)));
            }
            if (scoped.limits().maxParallelRequests().isPresent()) {
                leased.add(inFlightKey(scoped.scope()));
            }
        }
        args.add(countsChannel);
        Promise<Response> late = Promise.promise();
        Future<Admission> decided = RateLimitScripts.ADMIT.run(link, keys, args, late).transform(reply -> {
            if (reply.succeeded()) {
                try {
                    return Future.succeededFuture(decide(limited, reply.result(), now, permitId, List.copyOf(leased)));
                } catch (RuntimeException e) {
                    log.warn("limits.unreadable_reply reason={}; deciding on this replica's counts", e.toString());
                    return localCheck(subject, now, limited, null);
                }
            }
            // The script may run, or have run, after all: its late answer says whether it counted this request.
            Future<Boolean> counted = late.future().map(answer -> {
                heard(limited, answer, now);
                return answer.get(0).toInteger() == 1;
            });
            counted.onComplete(known -> {
                if (!leased.isEmpty() && !(known.succeeded() && !known.result())) {
                    // A lease it took must not hold a place no call uses.
                    release(permitId, 0, now, limited, leased);
                }
            });
            return localCheck(subject, now, limited, counted);
        });
        return RedisLink.backOn(Vertx.currentContext(), decided);
    }

    private Future<Admission> localCheck(LimitSubject subject, Instant now, List<Scoped> limited, Future<Boolean> countedInRedis) {
        if (limited.isEmpty()) {
            return Future.succeededFuture(new Admission.Admitted(new Permit((tokens, at) -> {}, clock), RateLimitHeaders.NONE));
        }
        decidedLocally.incrementAndGet();
        link.decidedLocally();
        return Future.succeededFuture(outage.admit(subject, now, countedInRedis));
    }

    /** What the script's answer {@code reply} says of each scope's window, for deciding alone later. */
    private void heard(List<Scoped> limited, Response reply, Instant now) {
        long minute = LimitDecisions.minuteOf(now);
        for (int i = 0; i < limited.size(); i++) {
            outage.heard(windowKey(limited.get(i).scope(), minute), minute, reply.get(3 * i + 1).toLong(), reply.get(3 * i + 2).toLong());
        }
    }

    /**
     * A line per window, {@code <window> <requests> <tokens>}, as an admission on any replica published
     * it. Read from the end: a team's id, part of its window's key, may hold spaces.
     */
    private void heard(String published) {
        for (String line : published.split("\n")) {
            int tokensAt = line.lastIndexOf(' ');
            int requestsAt = line.lastIndexOf(' ', tokensAt - 1);
            if (requestsAt > 0) {
                String window = line.substring(0, requestsAt);
                long minute = Long.parseLong(window.substring(window.lastIndexOf(':') + 1));
                outage.heard(window, minute, Long.parseLong(line.substring(requestsAt + 1, tokensAt)),
                        Long.parseLong(line.substring(tokensAt + 1)));
            }
        }
    }

    /** How many calls of {@code scope} this replica admitted through Redis that are still open. */
    private long openThroughRedis(Scope scope) {
        String key = inFlightKey(scope);
        return leases.values().stream().filter(held -> held.keys().contains(key)).count();
    }

    /** The admission the script's counts say. */
    private Admission decide(List<Scoped> limited, Response reply, Instant now, String permitId, List<String> leased) {
        heard(limited, reply, now);
        List<Usage> used = new ArrayList<>(limited.size());
        for (int i = 0; i < limited.size(); i++) {
            used.add(new Usage(reply.get(3 * i + 1).toLong(), reply.get(3 * i + 2).toLong(), reply.get(3 * i + 3).toLong()));
        }
        if (reply.get(0).toInteger() == 0) {
            // The script refuses by the same rule LimitDecisions words, on the same counts and limits.
            return Objects.requireNonNull(LimitDecisions.refusal(limited, used, now), "a refusal the counts do not show");
        }
        if (!leased.isEmpty()) {
            leases.put(permitId, new Lease(leased, clock.millis()));
        }
        Permit permit = new Permit((tokens, at) -> release(permitId, tokens, at, limited, keysOf(leases.remove(permitId))), clock);
        return new Admission.Admitted(permit, LimitDecisions.headers(limited, used, now));
    }

    private static List<String> keysOf(Lease lease) {
        return lease == null ? null : lease.keys();
    }

    /** Adds a call's tokens to the minute it ended in, for scopes with a {@code tpm}, and drops its leases. */
    private void release(String permitId, long tokens, Instant at, List<Scoped> limited, List<String> leased) {
        List<String> keys = new ArrayList<>(limited.size() + 1);
        if (tokens > 0) {
            long minute = LimitDecisions.minuteOf(at);
            for (Scoped scoped : limited) {
                if (scoped.limits().tpm().isPresent()) {
                    keys.add(windowKey(scoped.scope(), minute));
                }
            }
        }
        int windows = keys.size();
        keys.forEach(key -> outage.addedTokens(key, LimitDecisions.minuteOf(at), tokens));
        if (leased == null || leased.isEmpty()) {
            // Nothing waits on tokens: they go out with those of the next few milliseconds.
            keys.forEach(key -> unsentTokens.add(key, tokens));
            return;
        }
        // A place in max_parallel_requests is freed at once, and the call's tokens go with it.
        keys.addAll(leased);
        RateLimitScripts.RELEASE.run(link, keys, List.of(Long.toString(tokens), permitId, Integer.toString(windows), Long.toString(WINDOW_SECONDS)));
    }

    /** One script for the tokens of every call released since the last. */
    private void sendTokens(Map<String, Long> gathered) {
        List<String> keys = new ArrayList<>(gathered.size());
        List<String> args = new ArrayList<>(gathered.size() + 1);
        args.add(Long.toString(WINDOW_SECONDS));
        gathered.forEach((key, tokens) -> {
            keys.add(key);
            args.add(Long.toString(tokens));
        });
        RateLimitScripts.ADD_TOKENS.run(link, keys, args);
    }

    /** Pushes out the lease end of every call of this replica still in flight. */
    private void renewLeases() {
        try {
            if (leases.isEmpty() || !link.isUp()) {
                return;
            }
            long now = clock.millis();
            // A permit never released (a call lost to a fault) must not hold its place for good.
            leases.values().removeIf(lease -> now - lease.takenAtMillis() > maxLeaseLife.toMillis());
            writeLeases(now, true);
        } catch (RuntimeException e) {
            log.warn("limits.lease_renewal_failed reason={}", e.toString());
        }
    }

    /**
     * Writes the lease end of every call still in flight: renewing only those Redis still holds
     * ({@code XX}, so a call released meanwhile is not brought back), or, after Redis was away
     * or restarted, all of them, since their leases may have lapsed or been lost.
     */
    private void writeLeases(long now, boolean renewOnly) {
        String leaseEnd = Long.toString(now + lease.toMillis());
        Map<String, List<String>> byKey = new HashMap<>();
        leases.forEach((permitId, held) -> held.keys().forEach(key -> byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(permitId)));
        byKey.forEach((key, permits) -> {
            Request write = Request.cmd(Command.ZADD).arg(key);
            if (renewOnly) {
                write.arg("XX");
            }
            permits.forEach(permit -> write.arg(leaseEnd).arg(permit));
            link.send(write);
            link.send(Request.cmd(Command.PEXPIRE).arg(key).arg(2 * lease.toMillis()));
        });
    }

    /** The most Redis reported of the requests of {@code scope} in the minute of {@code at}. */
    long heardRequests(Scope scope, Instant at) {
        return outage.heardRequests(windowKey(scope, LimitDecisions.minuteOf(at)));
    }

    /** How many replicas this one last saw alive, itself included. */
    int replicasSeen() {
        return presence.replicasSeen();
    }

    /** How many decisions this replica made on its own counts because Redis could not answer. */
    public long decidedLocally() {
        return decidedLocally.get();
    }

    private String windowKey(Scope scope, long minute) {
        return keyPrefix + scope.descriptor() + ":" + scope.value() + ":" + minute;
    }

    private String inFlightKey(Scope scope) {
        return keyPrefix + scope.descriptor() + ":" + scope.value() + ":inflight";
    }

    /** Stops renewing leases and joins the renewer; calls still open keep theirs until they lapse. */
    @Override
    public void close() {
        renewer.close();
    }
}
