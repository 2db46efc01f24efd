package dev.sluice.state.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Database;
import dev.sluice.store.ModelRepository;
import dev.sluice.store.RouterSettingRepository;
import dev.sluice.store.StoredModel;
import dev.sluice.store.StoredRouterSetting;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestSupervision;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The model sync and the router-settings sync outlive a round that throws an Error: what is
 * stored after it is still served. The store is real; the round's read throws once, right
 * after writing to the store, so only a round after the failure can serve what it wrote.
 */
class StorePollerRestartTest {
    private final TestSupervision time = new TestSupervision();

    @StoreTest
    void theModelSyncServesAModelStoredWhenOneOfItsRoundsRanOutOfMemory(Database database) {
        ModelRepository models = new ModelRepository(database);
        AtomicReference<List<StoredModel>> served = new AtomicReference<>(List.of());
        Supplier<List<StoredModel>> read = failingOnce(models::list, () -> models.insert(new StoredModel("m-1", "g",
                "{\"model_name\": \"g\"}", FakeClock.START, FakeClock.START)));
        StorePoller<List<StoredModel>> poller = new StorePoller<>(subject("models", "sluice-model-sync"), Duration.ofSeconds(2),
                read, served::set);
        try {
            poller.start(time.scheduler());

            Eventually.until("the model stored by the failed round is served", Duration.ofSeconds(10),
                    () -> served.get().stream().anyMatch(model -> model.modelId().equals("m-1")));
            assertThat(time.restarts().of("model-sync")).isEqualTo(1);
            assertThat(time.waits()).contains(Duration.ofSeconds(1));
        } finally {
            poller.close();
        }
    }

    @StoreTest
    void theRouterSettingsSyncServesASettingStoredWhenOneOfItsRoundsRanOutOfMemory(Database database) {
        RouterSettingRepository settings = new RouterSettingRepository(database);
        AtomicReference<List<StoredRouterSetting>> served = new AtomicReference<>(List.of());
        Supplier<List<StoredRouterSetting>> read = failingOnce(settings::list,
                () -> settings.write(Map.of("num_retries", "3"), List.of(), FakeClock.START));
        StorePoller<List<StoredRouterSetting>> poller = new StorePoller<>(
                subject("router_settings", "sluice-router-settings-sync"), Duration.ofSeconds(2), read, served::set);
        try {
            poller.startAfter(CompletableFuture.completedFuture(null), time.scheduler());

            Eventually.until("the setting stored by the failed round is served", Duration.ofSeconds(10),
                    () -> served.get().stream().anyMatch(setting -> setting.name().equals("num_retries")));
            assertThat(time.restarts().of("router-settings-sync")).isEqualTo(1);
        } finally {
            poller.close();
        }
    }

    /** Reads as {@code read} does, but its second read does {@code write} and then throws an OutOfMemoryError. */
    private static <T> Supplier<T> failingOnce(Supplier<T> read, Runnable write) {
        AtomicInteger reads = new AtomicInteger();
        return () -> {
            if (reads.incrementAndGet() == 2) {
                write.run();
                throw TestSupervision.outOfMemory();
            }
            return read.get();
        };
    }

    private static StorePoller.Subject subject(String event, String thread) {
        return new StorePoller.Subject(LoggerFactory.getLogger(StorePollerRestartTest.class), event, event, thread);
    }
}
