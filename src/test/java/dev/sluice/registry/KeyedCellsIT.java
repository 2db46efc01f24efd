package dev.sluice.registry;

import static dev.sluice.registry.ReplicaPair.assertServed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live cells of the reliability registry that need virtual keys: fallbacks skipped because
 * the caller's key may not use the group, or could not pay for a call to it; and a key's
 * metadata tags routing its calls with tag filtering on. Both replicas share one PostgreSQL
 * store (keys are made through one and used through the other) and one Redis.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeyedCellsIT {
    private static final String MASTER_KEY = "sk-registry-master";

    private final ReplicaPair pair = new ReplicaPair();
    private TestDatabase store;
    private GatewayProcess a;
    private GatewayProcess b;

    @BeforeAll
    void startReplicas(@TempDir Path folder) {
        store = TestDatabases.postgres();
        for (String name : List.of("locked", "open", "pricey", "thrifty", "keys-gold", "keys-std")) {
            pair.mock(MockOptions.defaults(name, MockMode.OK));
        }
        pair.mock(MockOptions.defaults("access-primary", MockMode.FAIL));
        pair.mock(MockOptions.defaults("budget-primary", MockMode.FAIL));
        String modelList = pair.deployment("access-primary", "access-primary", "access-primary", "")
                + pair.deployment("locked", "locked", "locked", "")
                + pair.deployment("open", "open", "open", "")
                + pair.deployment("budget-primary", "budget-primary", "budget-primary", "")
                + pair.deployment("pricey", "pricey", "pricey", "input_cost_per_token: 1, output_cost_per_token: 1")
                + pair.deployment("thrifty", "thrifty", "thrifty", "input_cost_per_token: 0, output_cost_per_token: 0")
                + pair.deployment("tagged-keys", "keys-gold", "keys-gold", "tags: [gold]")
                + pair.deployment("tagged-keys", "keys-std", "keys-std", "tags: [default]");
        pair.masterKey(MASTER_KEY);
        pair.start(folder, modelList, """
                general_settings:
                  master_key: %s
                  %s
                """.formatted(MASTER_KEY, store.generalSetting()), """
                  num_retries: 0
                  enable_tag_filtering: true
                  fallbacks: [{access-primary: [locked, open]}, {budget-primary: [pricey, thrifty]}]
                """);
        a = pair.a();
        b = pair.b();
    }

    @AfterAll
    void stopReplicas() {
        pair.close();
        if (store != null) {
            store.close();
        }
    }

    @Test
    void aFallbackGroupTheKeyMayNotUseIsSkippedAndTheNextServes() {
        String key = newKey(a, "{\"models\": [\"access-primary\", \"open\"]}");

        HttpResponse<String> answer = b.post("/v1/chat/completions", ReplicaPair.chat("access-primary", "hi", ""),
                "Authorization", "Bearer " + key);

        assertServed(answer, "open", "open", 0, 1);
        assertThat(pair.requests("locked")).as("the group the key may not use").isZero();
        assertThat(pair.requests("access-primary")).isEqualTo(1);
    }

    @Test
    void aFallbackGroupOverTheKeysBudgetIsSkippedAndTheNextServes() {
        String key = newKey(a, "{\"max_budget\": 0.01}");

        HttpResponse<String> answer = b.post("/v1/chat/completions", ReplicaPair.chat("budget-primary", "hi", ""),
                "Authorization", "Bearer " + key);

        assertServed(answer, "thrifty", "thrifty", 0, 1);
        assertThat(pair.requests("pricey")).as("a dollar a token: no call fits a budget of a cent").isZero();
        assertThat(pair.requests("budget-primary")).isEqualTo(1);
    }

    @Test
    void aKeysMetadataTagsRouteItsCallsThroughEitherReplica() {
        String gold = newKey(a, "{\"metadata\": {\"tags\": [\"gold\"]}}");
        String plain = newKey(b, "{}");

        for (GatewayProcess replica : List.of(a, b, a, b)) {
            assertServed(replica.post("/v1/chat/completions", ReplicaPair.chat("tagged-keys", "hi", ""),
                    "Authorization", "Bearer " + gold), "tagged-keys", "keys-gold", 0, 0);
            assertServed(replica.post("/v1/chat/completions", ReplicaPair.chat("tagged-keys", "hi", ""),
                    "Authorization", "Bearer " + plain), "tagged-keys", "keys-std", 0, 0);
        }
        assertThat(pair.requests("keys-gold")).isEqualTo(4);
        assertThat(pair.requests("keys-std")).isEqualTo(4);
    }

    private static String newKey(GatewayProcess replica, String body) {
        HttpResponse<String> made = replica.post("/key/generate", body, "Authorization", "Bearer " + MASTER_KEY);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        return ReplicaPair.parse(made.body()).path("key").asText();
    }
}
