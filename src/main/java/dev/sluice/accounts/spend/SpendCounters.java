package dev.sluice.accounts.spend;

import dev.sluice.accounts.limits.Scope;
import dev.sluice.time.BudgetDuration;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * The spend of the current budget period of each key, team and key's model group, kept in
 * process so that a call's cost counts the moment it is known: the very next request's
 * budget checks see it, while the store's writes are batched behind.
 *
 * <h2>Design notes</h2>
 * A scope is counted from the store's figures the first time it is seen ({@link #seed});
 * from then on this process's counter is ahead of the store, and {@link #isSeeded} tells
 * the caller it need not read the store again. A cost added for a scope not yet seeded is
 * kept, and the store's figures are added to it when the seed comes.
 *
 * <p>Each counter holds its current period: when it ends and a {@link DoubleAdder} of what
 * was spent in it. Adding is lock-free. The first reader or writer at or after the period's
 * end swaps in the next period, empty, ending at the next reset of the budget's
 * {@link BudgetDuration} (stepped from the old end, so a budget keeps its cadence however
 * long it sat idle); only one swap wins. A cost whose time was before the end, added while
 * the swap happens, lands in the period it belongs to. A store's period that had already
 * ended when seeded contributes nothing: its spend is of a period gone by.
 *
 * <p>Resets happen at the instant they are due, whatever reset job the store runs. Calendar
 * resets (days, weeks, months) fall in the zone given, LiteLLM's
 * {@code litellm_settings.timezone}, UTC by default.
 */
public final class SpendCounters {

    /**
     * One budget period: when it ends (null: never), what was spent in it, and when it began
     * (null for the period a counter was seeded in, whose start only the store knew).
     */
    private record Period(Optional<BudgetDuration> duration, Instant end, DoubleAdder spend, Instant start) {
        Period(Optional<BudgetDuration> duration, Instant end, DoubleAdder spend) {
            this(duration, end, spend, null);
        }
    }

    private static final class Counter {
        final AtomicReference<Period> period;
        final AtomicBoolean seeded;

        Counter(Period period, boolean seeded) {
            this.period = new AtomicReference<>(period);
            this.seeded = new AtomicBoolean(seeded);
        }
    }

    private final Clock clock;
    private final ZoneId resetZone;
    private final ConcurrentMap<Scope, Counter> counters = new ConcurrentHashMap<>();

    /** Counters whose calendar resets fall in UTC. */
    public SpendCounters(Clock clock) {
        this(clock, ZoneOffset.UTC);
    }

    public SpendCounters(Clock clock, ZoneId resetZone) {
        this.clock = clock;
        this.resetZone = resetZone;
    }

    /** Whether {@code scope} has been seeded from the store. */
    public boolean isSeeded(Scope scope) {
        Counter counter = counters.get(scope);
        return counter != null && counter.seeded.get();
    }

    /**
     * Starts counting {@code scope} from the store's figures, the first time it is seen, and
     * returns its current spend. A scope already seeded keeps its own count: the figures are
     * ignored, as this process knows better than a store that is behind.
     */
    public double seed(Scope scope, StoredSpend stored) {
        Instant now = clock.instant();
        Counter counter = counters.get(scope);
        if (counter == null) {
            counter = counters.putIfAbsent(scope, seeded(stored, now));
            if (counter == null) {
                return current(scope);
            }
        }
        if (counter.seeded.compareAndSet(false, true)) {
            // Costs were added before the store's figures arrived: keep them, in the store's period.
            Period unseeded = counter.period.getAndUpdate(held -> firstPeriod(stored, now, held.spend()));
            unseeded.spend().add(countedSpend(stored, now));
        }
        return current(scope);
    }

    /** Replaces what is counted for {@code scope} with {@code stored}, after an administrator changed it. */
    public void replace(Scope scope, StoredSpend stored) {
        counters.put(scope, seeded(stored, clock.instant()));
    }

    /** Stops counting a deleted key or team. */
    public void forget(Scope scope) {
        counters.remove(scope);
    }

    /** Stops counting a key and each of its per-group budgets: the next use counts them from the store again. */
    public void forgetKey(String keyId) {
        counters.keySet().removeIf(scope -> scope instanceof Scope.Key key && key.keyId().equals(keyId)
                || scope instanceof Scope.KeyModel model && model.keyId().equals(keyId));
    }

    /**
     * Brings {@code scope}'s count up to the store's, when the store has more for the same
     * period: what other replicas have spent reaches this one each time it reads the key
     * again. Never lowers a count (this process may know of spend the store has not got yet);
     * a store still in another period (a reset not yet written, say) changes nothing. A scope
     * not yet counted is {@linkplain #seed seeded}.
     */
    public void raiseTo(Scope scope, StoredSpend stored) {
        Counter counter = counters.get(scope);
        if (counter == null || !counter.seeded.get()) {
            seed(scope, stored);
            return;
        }
        synchronized (counter) {
            Period period = currentPeriod(counter, clock.instant());
            boolean samePeriod = stored.duration().isEmpty()
                    ? period.end() == null
                    : stored.resetAt().filter(resetAt -> resetAt.equals(period.end())).isPresent();
            double behind = stored.spend() - period.spend().sum();
            if (samePeriod && behind > 0) {
                period.spend().add(behind);
            }
        }
    }

    /**
     * Brings {@code scope}'s count in its current period up to {@code spend}, what the
     * replicas' shared store counts for that period. Never lowers a count; a scope not yet
     * seeded from the store is left alone, as its seed will bring the store's figures.
     */
    public void raiseCurrent(Scope scope, double spend) {
        Counter counter = counters.get(scope);
        if (counter == null || !counter.seeded.get() || !(spend > 0)) {
            return;
        }
        synchronized (counter) {
            Period period = currentPeriod(counter, clock.instant());
            double behind = spend - period.spend().sum();
            if (behind > 0) {
                period.spend().add(behind);
            }
        }
    }

    /**
     * Counts {@code cost} (US dollars, at least 0) for {@code scope} in its current period,
     * now. Returns the period's spend after it.
     */
    public double add(Scope scope, double cost) {
        checkDollars("cost", cost);
        Counter counter = counters.computeIfAbsent(scope,
                unseen -> new Counter(new Period(Optional.empty(), null, new DoubleAdder()), false));
        Period period = currentPeriod(counter, clock.instant());
        period.spend().add(cost);
        return exact(period.spend().sum());
    }

    /** Counts {@code cost} (US dollars) for each of {@code scopes}; nothing when it is 0. */
    public void addAll(List<Scope> scopes, double cost) {
        if (cost > 0) {
            for (Scope scope : scopes) {
                add(scope, cost);
            }
        }
    }

    /** What {@code scope} has spent in its current period; 0 for a scope never seen. */
    public double current(Scope scope) {
        Counter counter = counters.get(scope);
        return counter == null ? 0 : exact(currentPeriod(counter, clock.instant()).spend().sum());
    }

    /** When {@code scope}'s current period ends; empty when its spend never starts again or it was never seen. */
    public Optional<Instant> resetAt(Scope scope) {
        Counter counter = counters.get(scope);
        return counter == null ? Optional.empty() : Optional.ofNullable(currentPeriod(counter, clock.instant()).end());
    }

    /**
     * When {@code scope}'s current period began; empty for a scope never seen, one whose spend
     * never starts again, and the period a counter was seeded in (it began before this process
     * counted).
     */
    public Optional<Instant> periodStart(Scope scope) {
        Counter counter = counters.get(scope);
        return counter == null ? Optional.empty() : Optional.ofNullable(currentPeriod(counter, clock.instant()).start());
    }

    /** The counter's period holding {@code now}, moving it on first if its period has ended. */
    private Period currentPeriod(Counter counter, Instant now) {
        while (true) {
            Period held = counter.period.get();
            if (held.end() == null || now.isBefore(held.end())) {
                return held;
            }
            BudgetDuration duration = held.duration().orElseThrow();
            Period next = new Period(held.duration(), duration.currentPeriodEnd(held.end(), now, resetZone), new DoubleAdder(),
                    duration.currentPeriodStart(held.end(), now, resetZone));
            if (counter.period.compareAndSet(held, next)) {
                return next;
            }
        }
    }

    private Counter seeded(StoredSpend stored, Instant now) {
        DoubleAdder spend = new DoubleAdder();
        spend.add(countedSpend(stored, now));
        return new Counter(firstPeriod(stored, now, spend), true);
    }

    /** The period a seeded counter starts in, counting into {@code spend}, which it does not fill. */
    private Period firstPeriod(StoredSpend stored, Instant now, DoubleAdder spend) {
        if (stored.duration().isEmpty()) {
            return new Period(Optional.empty(), null, spend);
        }
        BudgetDuration duration = stored.duration().get();
        Instant end = stored.resetAt()
                .map(resetAt -> duration.currentPeriodEnd(resetAt, now, resetZone))
                .orElseGet(() -> duration.nextReset(now, resetZone));
        return new Period(stored.duration(), end, spend);
    }

    /** The part of the store's spend that belongs to the period holding {@code now}. */
    private static double countedSpend(StoredSpend stored, Instant now) {
        boolean periodOver = stored.duration().isPresent()
                && stored.resetAt().map(resetAt -> !now.isBefore(resetAt)).orElse(false);
        return periodOver ? 0 : stored.spend();
    }

    /**
     * A sum of costs rounded to a trillionth of a dollar, the store's precision: adding
     * binary fractions drifts in the last bits (0.009 + 0.001 sums to 0.009999999999999998),
     * and a budget of exactly 0.01 must count as reached by exactly 0.01 of calls.
     */
    static double exact(double sum) {
        return java.math.BigDecimal.valueOf(sum).setScale(12, java.math.RoundingMode.HALF_EVEN).doubleValue();
    }

    public static void checkDollars(String field, double dollars) {
        if (!(dollars >= 0) || Double.isInfinite(dollars)) {
            throw new IllegalArgumentException(field + ": " + dollars + " (expected: a number of US dollars >= 0)");
        }
    }
}
