package dev.sluice.store.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Database;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.StoreLocation;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TestDatabases;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar on its embedded store, killed outright ({@code kill -9}) the moment its spend
 * journal has shipped every row: the store's file holds every call a client got a 200 for.
 * The journal lets go of a row once the store took it, so the store must have written it to
 * its file by then, not only committed it in memory.
 */
class EmbeddedStoreCrashIT {
    @Test
    void everyShippedRowIsInTheStoresFileWhenTheProcessIsKilled(@TempDir Path folder) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("crash", MockMode.OK))) {
            String yaml = SpendJournalCrashIT.config(upstream, "");
            List<String> answered;
            try (GatewayProcess gateway = GatewayProcess.start("gateway", yaml, folder)) {
                answered = SpendJournalCrashIT.answeredCalls(gateway, SpendJournalCrashIT.MASTER_KEY, 200);
                gateway.awaitMetric("the journal shipped every row", "sluice_spend_rows_buffered_on_disk", 0);
                gateway.kill();
            }
            Path file = folder.resolve("gateway").resolve("sluice-data").resolve("sluice");
            try (Database store = Database.open(StoreLocation.embedded(file), TestDatabases.OPTIONS, TimeSource.system().ticker())) {
                SpendRepository spendLog = new SpendRepository(store);
                Set<String> logged = spendLog.find(Set.copyOf(answered)).keySet();
                assertThat(answered).as("answered calls without a spend row in the store's file")
                        .filteredOn(id -> !logged.contains(id)).isEmpty();
                assertThat(spendLog.count()).as("each call logged once").isEqualTo(answered.size());
            }
        }
    }
}
