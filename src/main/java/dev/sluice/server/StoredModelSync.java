package dev.sluice.server;

import dev.sluice.config.Deployment;
import dev.sluice.json.Json;
import dev.sluice.router.ModelRegistry;
import dev.sluice.store.ModelRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoredModel;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the deployments added through the model API in step with the store, so a model added,
 * changed or deleted through any replica is served the same way by every replica sharing the
 * store within {@link #DEFAULT_INTERVAL}, and by a replica that restarts from its first request.
 *
 * <p>Each round reads every stored entry (a few hundred rows at most, one query) and serves
 * exactly those as the added deployments. An entry is parsed again only when its update time
 * changes. An entry this replica cannot serve (an {@code os.environ/} variable it lacks, a
 * guardrail it does not have) is left out and logged once per version; the others are served.
 * While the store cannot be read the added deployments stay as they were.
 */
public final class StoredModelSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StoredModelSync.class);

    /** How often the store is read. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);

    private record Version(String modelId, Instant updatedAt) {}

    private final ModelRepository store;
    private final ModelRegistry registry;
    private final ModelEntries entries;
    private final Duration interval;
    /**
     * Held by a round and by a change, so neither interleaves with the other. A lock rather than
     * {@code synchronized}: both read or write the database while holding it, and a virtual
     * thread blocked inside a monitor keeps its carrier thread on Java 21.
     */
    private final ReentrantLock lock = new ReentrantLock();
    /** Entries already parsed, by version: the deployment, or null for one that cannot be served. */
    private final Map<Version, Deployment> parsed = new HashMap<>();
    private volatile Thread loop;
    private boolean unreachableLogged;
    private volatile boolean readable = true;

    public StoredModelSync(ModelRepository store, ModelRegistry registry, ModelEntries entries, Duration interval) {
        this.store = store;
        this.registry = registry;
        this.entries = entries;
        this.interval = interval;
    }

    /** Reads the store once now (serving what it holds from the first request), then every interval. */
    public StoredModelSync start() {
        syncNow();
        loop = Rounds.every("sluice-model-sync", interval, this::syncNow);
        return this;
    }

    /**
     * Runs a change of the model API (a store write and the matching registry change) so that no
     * round can interleave with it: a round that read the store before the write would otherwise
     * put back what the store held then.
     */
    <T> T change(java.util.function.Supplier<T> work) {
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the last read of the store succeeded. */
    boolean readable() {
        return readable;
    }

    ModelRepository store() {
        return store;
    }

    ModelRegistry registry() {
        return registry;
    }

    ModelEntries entries() {
        return entries;
    }

    /** One round: serve what the store holds. Never throws. */
    void syncNow() {
        lock.lock();
        try {
            syncRound();
        } finally {
            lock.unlock();
        }
    }

    private void syncRound() {
        List<StoredModel> stored;
        try {
            stored = store.list();
        } catch (StoreException e) {
            readable = false;
            if (!unreachableLogged) {
                log.warn("models.store_unreadable reason={}; serving the added models as they were", e.getMessage());
                unreachableLogged = true;
            }
            return;
        }
        readable = true;
        if (unreachableLogged) {
            log.info("models.store_readable; added models follow the store again");
            unreachableLogged = false;
        }
        List<Deployment> served = new ArrayList<>(stored.size());
        Map<Version, Deployment> seen = new HashMap<>();
        for (StoredModel model : stored) {
            Version version = new Version(model.modelId(), model.updatedAt());
            Deployment deployment = parsed.containsKey(version) ? parsed.get(version) : parse(model);
            seen.put(version, deployment);
            if (deployment != null) {
                served.add(deployment);
            }
        }
        parsed.clear();
        parsed.putAll(seen);
        registry.replaceAdded(served);
    }

    private Deployment parse(StoredModel model) {
        try {
            Deployment deployment = entries.parse(Json.parse(model.entry().getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .deployment();
            if (!deployment.id().equals(model.modelId())) {
                log.warn("models.stored_entry_skipped id={} reason=its entry now gives the id '{}'", model.modelId(), deployment.id());
                return null;
            }
            return deployment;
        } catch (ModelEntries.Invalid e) {
            log.warn("models.stored_entry_skipped id={} reason={}", model.modelId(), e.getMessage());
        } catch (IOException e) {
            log.warn("models.stored_entry_skipped id={} reason=the stored entry is not JSON: {}", model.modelId(), e.getMessage());
        }
        return null;
    }

    @Override
    public void close() {
        Thread running = loop;
        if (running != null) {
            running.interrupt();
        }
    }
}
