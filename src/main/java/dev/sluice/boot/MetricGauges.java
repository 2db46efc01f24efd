package dev.sluice.boot;

import dev.sluice.accounts.Accounts;
import dev.sluice.call.cache.ResponseCache;
import dev.sluice.config.Deployment;
import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.ModelRegistry;
import dev.sluice.router.signals.RoutingSignals;
import dev.sluice.state.RedisLatencySamples;
import dev.sluice.state.sync.StoredModelSync;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.time.JobRestarts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The gauges {@code /metrics} reads at each scrape from the parts of the gateway that hold
 * their state: calls in flight and benches per deployment, the Redis link, the database and
 * the spend journal. Reading them takes no lock and makes no call.
 */
final class MetricGauges {
    private MetricGauges() {}

    /** Calls in flight and benches, per deployment. */
    static void deployments(GatewayMetrics metrics, ModelRegistry models, Cooldowns cooldowns, RoutingSignals signals) {
        metrics.gauge("sluice_deployment_in_flight", "Calls open on each deployment (across replicas when they share Redis).",
                () -> perDeployment(models, d -> signals.inFlight().count(d.id())), "model_group", "deployment");
        metrics.gauge("sluice_deployment_benched", "1 while a deployment is benched (cooled down), else 0.",
                () -> perDeployment(models, d -> cooldowns.isBenched(d) ? 1 : 0), "model_group", "deployment");
    }

    /**
     * Restarts of the process's background jobs after a failure, by job: every job is listed
     * from its start, at zero until it fails.
     */
    static void backgroundJobs(GatewayMetrics metrics, JobRestarts restarts) {
        metrics.counterOf("sluice_background_job_restarts_total", "Background jobs (callback senders, store syncs, budget "
                + "resets, the spend journal, Redis heartbeats) started again after an error or exception ended a run of them.",
                restarts::totals, "job");
    }

    /** The Redis link's health, and what flows through it, when replicas share state through it. */
    static void redis(GatewayMetrics metrics, Optional<RedisLink> redis, Optional<RedisLatencySamples> latencySamples) {
        latencySamples.ifPresent(samples -> metrics.counterOf("sluice_redis_latency_samples_received_total",
                "Latency samples taken in from other replicas, which latency-based routing weighs with this replica's own.",
                () -> (double) samples.received()));
        redis.ifPresent(link -> {
            metrics.gauge("sluice_redis_up", "1 while the Redis link is up, 0 while replicas serve on local state.",
                    () -> link.isUp() ? 1.0 : 0.0);
            metrics.counterOf("sluice_redis_outages_total", "Times Redis became unreachable.",
                    () -> (double) link.health().outages());
            metrics.counterOf("sluice_redis_call_failures_total", "Redis calls that failed, timed out, or were not sent while down.",
                    () -> (double) link.health().callFailures());
            metrics.counterOf("sluice_redis_decided_locally_total",
                    "Rate-limit admissions and deployment claims decided on this replica's counts because Redis could not answer.",
                    () -> (double) link.health().decidedLocally());
        });
    }

    /**
     * The response cache: lookups by result (a hit, a miss), answers stored or left out as too
     * large, reads and writes its store could not make, and what a local cache holds.
     */
    static void cache(GatewayMetrics metrics, ResponseCache cache) {
        String type = cache.counts().type();
        metrics.counterOf("sluice_cache_lookups_total", "Response cache lookups, by the cache's type and their result "
                + "(hit, or miss: no entry, one older than s-maxage, or a store that could not answer).",
                () -> Map.of(List.of(type, "hit"), (double) cache.counts().hits(), List.of(type, "miss"),
                        (double) cache.counts().misses()), "cache_type", "result");
        metrics.counterOf("sluice_cache_stores_total", "Answers stored in the response cache, or left out as larger "
                + "than max_size_per_item.", () -> Map.of(List.of(type, "stored"), (double) cache.counts().stored(),
                        List.of(type, "too_large"), (double) cache.counts().tooLarge()), "cache_type", "result");
        metrics.counterOf("sluice_cache_unavailable_total", "Response cache reads and writes the cache's store could not "
                + "make (Redis down or slower than socket_timeout): each a miss or a dropped write.",
                () -> (double) cache.counts().unavailable());
        cache.counts().held().ifPresent(held -> {
            metrics.gauge("sluice_cache_entries", "Answers the local response cache holds now.",
                    () -> (double) cache.counts().held().orElseThrow().entries());
            metrics.gauge("sluice_cache_bytes", "Bytes the local response cache holds now, against max_size_in_memory_mb.",
                    () -> (double) cache.counts().held().orElseThrow().bytes());
        });
    }

    /** The database and the spend journal, when a store is open. */
    static void store(GatewayMetrics metrics, Optional<Accounts> accounts, Optional<StoredModelSync> storedModels) {
        storedModels.ifPresent(sync -> metrics.gauge("sluice_database_up",
                "1 when the last read of the database (every 2 s) succeeded, else 0.", () -> sync.readable() ? 1.0 : 0.0));
        accounts.ifPresent(store -> {
            // Kept for dashboards made before the spend journal: every row is journaled before its call ends.
            metrics.gauge("sluice_spend_rows_waiting", "Spend rows held in memory only: none since the spend journal.",
                    () -> 0.0);
            metrics.gauge("sluice_spend_rows_buffered_on_disk", "Spend rows in the spend journal, not yet in the database.",
                    () -> (double) store.spendStatus().rowsPending());
            metrics.gauge("sluice_spend_journal_bytes", "Bytes of the spend journal's segment files on disk.",
                    () -> (double) store.spendJournal().bytesOnDisk());
            metrics.gauge("sluice_spend_journal_fill_ratio", "The spend journal's bytes against its bound (1 GiB): billable "
                    + "calls are refused at 1.", () -> store.spendJournal().fill());
            metrics.gauge("sluice_spend_journal_oldest_pending_seconds", "How long the oldest row not yet in the database "
                    + "has waited in the spend journal.", () -> store.spendJournal().oldestPendingAge().toMillis() / 1000.0);
            metrics.gauge("sluice_spend_dead_letters", "Spend rows the database refused, set aside with their reason.",
                    () -> (double) store.spendStatus().deadLetters());
            metrics.gauge("sluice_spend_store_reachable", "1 when the database took the spend journal shipper's last post, else 0.",
                    () -> store.spendStatus().sinkReachable() ? 1.0 : 0.0);
        });
    }

    private static Map<List<String>, Double> perDeployment(ModelRegistry models, ToDoubleFunction<Deployment> value) {
        Map<List<String>, Double> values = new LinkedHashMap<>();
        for (Deployment d : models.deployments()) {
            values.put(List.of(d.modelName(), d.id()), value.applyAsDouble(d));
        }
        return values;
    }
}
