package dev.sluice.accounts;

import dev.sluice.store.KeyRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.TeamRepository;
import dev.sluice.time.BudgetDuration;
import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets the stored spend of keys and teams back to zero when their {@code budget_duration}
 * comes round, and schedules the next reset, so that {@code /key/info} and a restarted
 * gateway see the new period. (Admission does not wait for this: the in-process counters
 * reset on the instant.) A reset already made by another replica is not made twice.
 */
public record BudgetResets(KeyRepository keys, TeamRepository teams, Clock clock, ZoneId zone) {
    private static final Logger log = LoggerFactory.getLogger(BudgetResets.class);
    /** How often the store is asked for budgets due. */
    public static final Duration EVERY = Duration.ofSeconds(10);
    private static final int BATCH = 500;

    /** Resets every key and team whose period has ended; returns how many were reset. Blocks on the store. */
    public int runOnce() {
        Instant now = clock.instant();
        return resetDue(limit -> keys.dueForReset(now, limit), key -> key.budget().budgetDuration(),
                key -> key.budget().budgetResetAt(), (key, next) -> keys.resetSpend(key.tokenHash(), next), now, zone)
                + resetDue(limit -> teams.dueForReset(now, limit), team -> team.budget().budgetDuration(),
                        team -> team.budget().budgetResetAt(), (team, next) -> teams.resetSpend(team.teamId(), next), now, zone);
    }

    /**
     * Resets the rows {@code due} lists, batch by batch. A full batch may hold more due rows
     * behind it; a batch that reset nothing (every row without a duration) would come back the
     * same, so the pass stops there.
     */
    static <T> int resetDue(IntFunction<List<T>> due, Function<T, Optional<String>> duration,
            Function<T, Optional<Instant>> resetAt, BiPredicate<T, Instant> reset, Instant now, ZoneId zone) {
        int total = 0;
        List<T> batch;
        int inBatch;
        do {
            batch = due.apply(BATCH);
            inBatch = 0;
            for (T row : batch) {
                Optional<Instant> next = nextReset(duration.apply(row), resetAt.apply(row), now, zone);
                if (next.isPresent() && reset.test(row, next.get())) {
                    inBatch++;
                }
            }
            total += inBatch;
        } while (batch.size() == BATCH && inBatch > 0);
        return total;
    }

    /**
     * Runs {@link #runOnce} every {@link #EVERY} as the job {@code budget-resets} until it is
     * stopped; a run that throws anything but a {@link StoreException} is restarted as the
     * scheduler's supervision says.
     */
    public SupervisedLoop start(Scheduler scheduler) {
        return scheduler.every("budget-resets", EVERY, () -> {
            try {
                int reset = runOnce();
                if (reset > 0) {
                    log.info("budgets.reset count={}", reset);
                }
            } catch (StoreException e) {
                log.debug("budgets.reset_postponed reason={}", e.getMessage());
            }
        });
    }

    /**
     * The end of the period holding {@code now}; empty for a budget without a duration (its
     * reset time was left over from an earlier duration and is cleared by the next update).
     */
    private static Optional<Instant> nextReset(Optional<String> duration, Optional<Instant> resetAt, Instant now, ZoneId zone) {
        if (duration.isEmpty() || resetAt.isEmpty()) {
            return Optional.empty();
        }
        BudgetDuration period = BudgetDuration.parse("budget_duration", duration.get());
        return Optional.of(period.currentPeriodEnd(resetAt.get(), now, zone));
    }
}
