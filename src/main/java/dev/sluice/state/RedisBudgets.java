package dev.sluice.state;

import dev.sluice.accounts.limits.BudgetCheck;
import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.limits.BudgetHold;
import dev.sluice.accounts.limits.BudgetReserver;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.accounts.spend.BudgetReservations;
import dev.sluice.accounts.spend.SpendCounters;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.store.redis.RedisScript;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Response;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The budgets of keys, teams and a key's model groups, counted in the Redis the replicas
 * share: what each has spent in its current period and what calls in flight on any replica
 * hold of it. A budget then holds across replicas, and while the database is away too, as
 * the spend in Redis does not wait for the database's spend log.
 *
 * <h2>Design notes</h2>
 * <b>One script decides.</b> An admission is one Lua script over the call's budgets: for each
 * it takes the larger of Redis's spend and this replica's own count (so Redis, empty after a
 * restart or first used, learns the database's figures from the replica that read them),
 * drops holds that have lapsed, and admits only if every budget's spend plus holds is below
 * its limit (to a billionth of a dollar); then it adds the call's hold to each. Redis runs
 * scripts one at a time, so two replicas cannot both take the last of a budget. The reply
 * carries each budget's spend, and this replica's counters are brought up to it
 * ({@link SpendCounters#raiseCurrent}): what other replicas spent is seen at once.
 *
 * <p><b>Keys.</b> {@code <prefix>budget:<scope>:<period end>:spent} holds a period's spend
 * (a new period is a new key; the old one expires an hour after its end, a lifetime budget's
 * a month after its last write) and {@code ...:held} the holds of calls in flight, a sorted
 * set of {@code <hold id>:<dollars>} scored by when the hold lapses ({@link #HOLD_LIFE} after
 * admission: a replica that died mid-call does not hold a budget for good; a call that runs
 * longer loses its hold and still counts its cost when it ends).
 *
 * <p><b>Settling</b> drops the hold and adds the cost to the spend of each scope the call is
 * charged to, in one script sent without waiting; the cost is counted in this replica at once.
 *
 * <p><b>Redis trouble never refuses a request.</b> While the link is down, or the script does
 * not answer within the link's budget, this replica decides on its own counts and holds
 * ({@link BudgetReservations}); a hold taken there is settled there. A script that timed out
 * may still have taken its hold in Redis; it lapses with {@link #HOLD_LIFE}.
 */
public final class RedisBudgets implements BudgetReserver {
    private static final Logger log = LoggerFactory.getLogger("dev.sluice.state");

    /** How long a call's hold counts against a shared budget. */
    public static final Duration HOLD_LIFE = Duration.ofMinutes(15);
    private static final long LIFETIME_TTL_SECONDS = Duration.ofDays(31).toSeconds();
    private static final long AFTER_PERIOD_SECONDS = Duration.ofHours(1).toSeconds();

    /*
     * KEYS: per budget, its spent key and its held set.
     * ARGV: now (ms), hold lapse (ms), hold member, estimate, then per budget: limit, this replica's spend, spent key ttl (s).
     * Returns {admitted (0/1), then per budget spend and held as strings}: held before the call's own hold.
     */
    private static final RedisScript RESERVE = new RedisScript("""
            local now, lapse, member, estimate = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
            local budgets = #KEYS / 2
            local reply, admitted = {1}, 1
            for i = 1, budgets do
              local spentKey, heldKey = KEYS[2 * i - 1], KEYS[2 * i]
              local limit, mine, ttl = tonumber(ARGV[3 * i + 2]), tonumber(ARGV[3 * i + 3]), ARGV[3 * i + 4]
              local spent = tonumber(redis.call('GET', spentKey) or '0')
              if mine > spent then
                redis.call('SET', spentKey, ARGV[3 * i + 3], 'EX', ttl)
                spent = mine
              end
              redis.call('ZREMRANGEBYSCORE', heldKey, '-inf', now)
              local held = 0
              for _, m in ipairs(redis.call('ZRANGE', heldKey, 0, -1)) do
                held = held + tonumber(string.match(m, ':([^:]+)$'))
              end
              if spent + held > limit - 1e-9 then
                admitted = 0
              end
              reply[2 * i], reply[2 * i + 1] = tostring(spent), tostring(held)
            end
            reply[1] = admitted
            if admitted == 1 and estimate > 0 then
              for i = 1, budgets do
                redis.call('ZADD', KEYS[2 * i], lapse, member)
                redis.call('PEXPIRE', KEYS[2 * i], lapse - now)
              end
            end
            return reply
            """);

    /* KEYS: the held sets (ARGV[2] of them), then the spent keys. ARGV: member, held sets, cost, then a ttl per spent key. */
    private static final RedisScript SETTLE = new RedisScript("""
            local sets = tonumber(ARGV[2])
            for i = 1, #KEYS do
              if i <= sets then
                redis.call('ZREM', KEYS[i], ARGV[1])
              elseif tonumber(ARGV[3]) > 0 then
                redis.call('INCRBYFLOAT', KEYS[i], ARGV[3])
                redis.call('EXPIRE', KEYS[i], ARGV[i - sets + 3])
              end
            end
            return 1
            """);

    private final RedisLink link;
    private final BudgetReservations local;
    private final SpendCounters counters;
    private final Clock clock;
    private final String keyPrefix;
    /** Hold ids are this store's id and a count: unique across replicas without a random draw per call. */
    private final String origin = UUID.randomUUID() + ":";
    private final AtomicLong holds = new AtomicLong();

    /** @param local where this replica holds budgets while Redis cannot answer; over the same {@code counters} */
    public RedisBudgets(RedisLink link, BudgetReservations local, SpendCounters counters, Clock clock) {
        this.link = link;
        this.local = local;
        this.counters = counters;
        this.clock = clock;
        this.keyPrefix = link.prefix() + "budget:";
    }

    @Override
    public Future<Reservation> reserve(List<Budget> budgets, double estimate) {
        if (!link.isUp()) {
            return locally(budgets, estimate);
        }
        Instant now = clock.instant();
        String member = origin + holds.incrementAndGet() + ":" + estimate;
        List<String> keys = new ArrayList<>(budgets.size() * 2);
        List<String> args = new ArrayList<>(4 + budgets.size() * 3);
        args.add(Long.toString(now.toEpochMilli()));
        args.add(Long.toString(now.plus(HOLD_LIFE).toEpochMilli()));
        args.add(member);
        args.add(Double.toString(estimate));
        for (Budget budget : budgets) {
            keys.add(spentKey(budget.scope()));
            keys.add(heldKey(budget.scope()));
            args.add(Double.toString(budget.maxBudget()));
            args.add(Double.toString(counters.current(budget.scope())));
            args.add(Long.toString(ttlSeconds(budget.scope(), now)));
        }
        Future<Reservation> decided = RESERVE.run(link, keys, args).transform(reply -> {
            if (reply.succeeded()) {
                try {
                    return Future.succeededFuture(decide(budgets, reply.result(), member, estimate));
                } catch (RuntimeException e) {
                    log.warn("budgets.unreadable_reply reason={}; deciding on this replica's counts", e.toString());
                }
            }
            return locally(budgets, estimate);
        });
        return RedisLink.backOn(Vertx.currentContext(), decided);
    }

    private Future<Reservation> locally(List<Budget> budgets, double estimate) {
        link.decidedLocally();
        return local.reserve(budgets, estimate);
    }

    private Reservation decide(List<Budget> budgets, Response reply, String member, double estimate) {
        List<Budget> now = new ArrayList<>(budgets.size());
        for (int i = 0; i < budgets.size(); i++) {
            Budget budget = budgets.get(i);
            double spent = Double.parseDouble(reply.get(2 * i + 1).toString());
            double held = Double.parseDouble(reply.get(2 * i + 2).toString());
            counters.raiseCurrent(budget.scope(), spent);
            now.add(new Budget(budget.scope(), budget.maxBudget(), Math.max(0, spent), Math.max(0, held)));
        }
        if (reply.get(0).toInteger() == 0) {
            // The script refuses on the same figures, to a billionth of a dollar: name the budget they reach,
            // one spent out before one only held, as this replica's own check would.
            return new Reached(BudgetCheck.exhausted(now).orElse(now.getFirst()));
        }
        List<String> heldKeys = estimate > 0 ? budgets.stream().map(b -> heldKey(b.scope())).toList() : List.of();
        return new Held(hold(member, heldKeys));
    }

    private BudgetHold hold(String member, List<String> heldKeys) {
        AtomicBoolean settled = new AtomicBoolean();
        return (charged, dollars) -> {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            counters.addAll(charged, dollars);
            if (heldKeys.isEmpty() && !(dollars > 0)) {
                return;
            }
            Instant now = clock.instant();
            List<String> keys = new ArrayList<>(heldKeys);
            List<String> args = new ArrayList<>(3 + charged.size());
            args.add(member);
            args.add(Integer.toString(heldKeys.size()));
            args.add(Double.toString(dollars));
            for (Scope scope : charged) {
                keys.add(spentKey(scope));
                args.add(Long.toString(ttlSeconds(scope, now)));
            }
            SETTLE.run(link, keys, args).onFailure(e -> log.debug("budgets.settle_unsent reason={}", e.toString()));
        };
    }

    /** The key of {@code scope}'s spend in its current period: a new period is a new key. */
    private String spentKey(Scope scope) {
        long periodEnd = counters.resetAt(scope).map(Instant::getEpochSecond).orElse(0L);
        return keyPrefix + scope.descriptor() + ":" + scope.value() + ":" + periodEnd + ":spent";
    }

    private String heldKey(Scope scope) {
        return keyPrefix + scope.descriptor() + ":" + scope.value() + ":held";
    }

    private long ttlSeconds(Scope scope, Instant now) {
        return counters.resetAt(scope)
                .map(end -> Math.max(1, Duration.between(now, end).toSeconds()) + AFTER_PERIOD_SECONDS)
                .orElse(LIFETIME_TTL_SECONDS);
    }
}
