package dev.sluice.state.sync;

import dev.sluice.config.Deployment;
import dev.sluice.router.ModelRegistry;
import dev.sluice.store.ModelRepository;
import dev.sluice.store.StoredModel;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
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
public final class StoredModelSync extends StoreSync<StoredModelSync> {
    private static final Logger log = LoggerFactory.getLogger(StoredModelSync.class);

    /** How often the store is read. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);

    private record Version(String modelId, Instant updatedAt) {}

    private final ModelRepository store;
    private final ModelRegistry registry;
    private final ModelEntries entries;
    private final StorePoller<List<StoredModel>> poller;
    /** Entries already parsed, by version: the deployment, or null for one that cannot be served. */
    private final Map<Version, Deployment> parsed = new HashMap<>();

    public StoredModelSync(ModelRepository store, ModelRegistry registry, ModelEntries entries, Duration interval) {
        this.store = store;
        this.registry = registry;
        this.entries = entries;
        this.poller = new StorePoller<>(new StorePoller.Subject(log, "models", "added models", "sluice-model-sync"), interval,
                store::list, this::serve);
    }

    @Override
    StorePoller<?> poller() {
        return poller;
    }

    /**
     * Runs a change of the model API (a store write and the matching registry change) so that no
     * round can interleave with it: a round that read the store before the write would otherwise
     * put back what the store held then.
     */
    public <T> T change(Supplier<T> work) {
        return poller.locked(work);
    }

    /** Whether the last read of the store succeeded. */
    public boolean readable() {
        return poller.readable();
    }

    public ModelRepository store() {
        return store;
    }

    public ModelRegistry registry() {
        return registry;
    }

    public ModelEntries entries() {
        return entries;
    }

    /** Serves exactly the stored entries, parsing only those whose version is new. */
    private void serve(List<StoredModel> stored) {
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
}
