package dev.sluice.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.SpendRepository;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database-loss cell of the reliability registry: two replicas reach their shared
 * PostgreSQL through a proxy the test cuts. While it is gone, keys already seen keep working
 * on both replicas, an unseen key gets a clear 503, and every call's spend row waits on disk;
 * when it is back, the rows land.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoreLossCellIT {
    private static final String MASTER_KEY = "sk-store-loss-master";

    private final ReplicaPair pair = new ReplicaPair();
    private TestDatabase store;
    private TcpProxy database;
    private GatewayProcess a;
    private GatewayProcess b;

    @BeforeAll
    void startReplicas(@TempDir Path folder) {
        store = TestDatabases.postgres();
        store.database(); // migrated before the replicas start, as by an earlier deployment
        database = TcpProxy.to(TestDatabases.postgresAddress());
        pair.mock(MockOptions.defaults("store-loss", MockMode.OK));
        pair.masterKey(MASTER_KEY);
        pair.start(folder, pair.deployment("g", "store-loss", "store-loss", ""), """
                general_settings:
                  master_key: %s
                  %s
                """.formatted(MASTER_KEY, store.generalSettingThrough(database.port())), "");
        a = pair.a();
        b = pair.b();
    }

    @AfterAll
    void stopReplicas() {
        pair.close();
        if (database != null) {
            database.close();
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    void withTheDatabaseGoneKeysSeenKeepWorkingOnBothReplicasAndTheirSpendLandsWhenItReturns() {
        HttpResponse<String> made = a.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER_KEY);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        String key = ReplicaPair.parse(made.body()).path("key").asText();
        HttpResponse<String> other = a.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER_KEY);
        String unseen = ReplicaPair.parse(other.body()).path("key").asText();
        for (GatewayProcess replica : List.of(a, b)) {
            assertThat(call(replica, key).statusCode()).as("%s reads the key", replica).isEqualTo(200);
        }

        database.stop();
        List<String> callIds = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            GatewayProcess replica = i % 2 == 0 ? a : b;
            long started = System.nanoTime();
            HttpResponse<String> answer = call(replica, key);
            assertThat(answer.statusCode()).as("call %d through %s with the database gone: %s", i, replica, answer.body())
                    .isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("answered promptly").isLessThan(Duration.ofSeconds(3));
            callIds.add(answer.headers().firstValue("x-litellm-call-id").orElseThrow());
        }
        HttpResponse<String> refused = call(b, unseen);
        assertThat(refused.statusCode()).as("a key never seen cannot be checked: %s", refused.body()).isEqualTo(503);
        assertThat(ReplicaPair.errorCode(refused)).isEqualTo("store_unavailable");
        assertThat(ReplicaPair.parse(a.get("/health/readiness").body()).path("db").asText()).startsWith("unreachable");

        database.resume();
        SpendRepository spendLog = new SpendRepository(store.database());
        Eventually.until("every call of the outage has its spend row", Duration.ofSeconds(30),
                () -> callIds.stream().allMatch(id -> spendLog.find(id).isPresent()));
        // A replica that just failed to read a key answers 503 at once for 2 s before it asks the store again.
        Eventually.until("the unseen key works once the database is back", Duration.ofSeconds(10),
                () -> call(b, unseen).statusCode() == 200);
    }

    private static HttpResponse<String> call(GatewayProcess replica, String key) {
        return replica.post("/v1/chat/completions", ReplicaPair.chat("g", "hi", ""), "Authorization", "Bearer " + key);
    }
}
