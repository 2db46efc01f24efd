package dev.sluice.state.sync;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.RouterSettingOverrides;
import dev.sluice.router.LiveRouterSettings;
import dev.sluice.store.RouterSettingRepository;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the router settings in effect ({@link LiveRouterSettings}) in step with the values
 * stored through the router settings API, so a change made through any replica is served by
 * every replica sharing the store within {@link #DEFAULT_INTERVAL}, and by a replica that
 * restarts from its first request.
 *
 * <p>Each round reads every stored setting (a handful of rows, one query) and, when they
 * differ from what the last round read, serves the file's settings with exactly those over
 * them. A stored value this version cannot read is left out, and logged once per value; the
 * others apply. While the store cannot be read the settings stay as they were.
 */
public final class StoredRouterSettingsSync extends StoreSync<StoredRouterSettingsSync> {
    private static final Logger log = LoggerFactory.getLogger(StoredRouterSettingsSync.class);

    /** How often the store is read. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);

    private final RouterSettingRepository store;
    private final LiveRouterSettings settings;
    private final StorePoller<Map<String, String>> poller;
    /** The stored values (JSON text by name) the settings in effect were built from. */
    private Map<String, String> served = Map.of();
    private RouterSettingOverrides overrides = RouterSettingOverrides.NONE;
    private final Set<String> skippedLogged = new HashSet<>();

    public StoredRouterSettingsSync(RouterSettingRepository store, LiveRouterSettings settings, Duration interval) {
        this.store = store;
        this.settings = settings;
        this.poller = new StorePoller<>(new StorePoller.Subject(log, "router_settings", "router settings",
                "sluice-router-settings-sync"), interval, this::read, this::serveChanged);
    }

    @Override
    StorePoller<?> poller() {
        return poller;
    }

    public LiveRouterSettings settings() {
        return settings;
    }

    /**
     * Stores a change and serves it from the next request on. Runs under the same lock as a
     * round, so a round that read the store before the write cannot put the old values back.
     *
     * @throws dev.sluice.store.StoreException when the store cannot take the change; nothing changes then
     */
    public void change(RouterSettingOverrides.Change change, Instant now) {
        poller.locked(() -> {
            Map<String, String> set = new LinkedHashMap<>();
            change.set().forEach((name, value) -> set.put(name, value.toString()));
            store.write(set, change.reset(), now);
            Map<String, String> stored = new LinkedHashMap<>(served);
            stored.putAll(set);
            change.reset().forEach(stored::remove);
            serve(stored);
            return null;
        });
    }

    /** The stored values, JSON text by name. */
    private Map<String, String> read() {
        Map<String, String> stored = new LinkedHashMap<>();
        store.list().forEach(row -> stored.put(row.name(), row.value()));
        return stored;
    }

    private void serveChanged(Map<String, String> stored) {
        if (!stored.equals(served)) {
            serve(stored);
        }
    }

    private void serve(Map<String, String> stored) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        stored.forEach((name, text) -> {
            try {
                values.put(name, Json.parse(text.getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
                skipped(name + ": the stored value is not JSON: " + e.getMessage());
            }
        });
        RouterSettingOverrides.Read read = RouterSettingOverrides.readStored(values);
        read.skipped().forEach(this::skipped);
        if (!read.overrides().values().equals(overrides.values())) {
            log.info("router_settings.changed stored={}", read.overrides().values());
        }
        overrides = read.overrides();
        settings.serve(overrides);
        served = Map.copyOf(stored);
    }

    private void skipped(String problem) {
        if (skippedLogged.add(problem)) {
            log.warn("router_settings.stored_value_skipped problem={}", problem);
        }
    }
}
