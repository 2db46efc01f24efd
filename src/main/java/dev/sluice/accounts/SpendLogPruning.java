package dev.sluice.accounts;

import dev.sluice.config.SpendLogSettings;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.StoreException;
import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the spend log's rows of calls older than the retention period, at start and then
 * every interval. Replicas sharing a database each prune: deleting what another already
 * deleted deletes nothing. The daily rollups stay, so reports over older days still add up.
 */
record SpendLogPruning(SpendRepository spendLog, SpendLogSettings settings, Clock clock) {
    private static final Logger log = LoggerFactory.getLogger(SpendLogPruning.class);
    /** Rows deleted per transaction: short enough not to hold the log against the shipper. */
    static final int CHUNK = 5_000;
    static final Duration RETRY = Duration.ofMinutes(5);

    /** Deletes the rows older than the retention period; returns how many. Blocks on the store. */
    long runOnce() {
        Instant cutoff = clock.instant().minus(settings.retention());
        return spendLog.deleteStartedBefore(cutoff, CHUNK);
    }

    /**
     * Runs {@link #runOnce} once the schema is applied ({@code migrated}), then every interval,
     * as the job {@code spend-log-pruning} until it is stopped. A run the store could not
     * answer is tried again after at most {@link #RETRY}; a run that throws anything but a
     * {@link StoreException} is restarted.
     */
    SupervisedLoop start(CompletableFuture<Void> migrated, Scheduler scheduler) {
        return scheduler.loop("spend-log-pruning", () -> {
            try {
                migrated.get();
            } catch (ExecutionException e) {
                return; // the schema was never applied: nothing to prune
            }
            while (!Thread.currentThread().isInterrupted()) {
                Duration next = settings.interval();
                try {
                    long deleted = runOnce();
                    if (deleted > 0) {
                        log.info("spend_log.pruned rows={} older_than={}", deleted, settings.retention());
                    }
                } catch (StoreException e) {
                    log.warn("spend_log.prune_postponed reason={}", e.getMessage());
                    next = next.compareTo(RETRY) < 0 ? next : RETRY;
                }
                scheduler.sleep(next);
            }
        });
    }
}
