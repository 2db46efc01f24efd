package dev.sluice.store.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.SpendRepository;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar killed outright ({@code kill -9}) while its database is away: every call a
 * client got a 200 for has its spend row once a new process starts on the same folder and
 * the database is back, exactly once.
 */
class SpendJournalCrashIT {
    static final String MASTER_KEY = "sk-crash-master";

    /** A gateway with group {@code g} on {@code upstream}, the master key, and {@code storeSetting} under general_settings. */
    static String config(MockUpstream upstream, String storeSetting) {
        return """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/g, api_base: '%s'}}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(upstream.baseUrl(), MASTER_KEY, storeSetting);
    }

    /** {@code count} calls to group {@code g} with {@code key}, each answered 200; their call ids. */
    static List<String> answeredCalls(GatewayProcess gateway, String key, int count) {
        List<String> answered = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions",
                    "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"call " + i + "\"}]}",
                    "Authorization", "Bearer " + key);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            answered.add(answer.headers().firstValue("x-litellm-call-id").orElseThrow());
        }
        return answered;
    }

    @Test
    void everyAnsweredCallHasItsSpendRowAfterAKillDuringAnOutage(@TempDir Path folder) throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("crash", MockMode.OK));
                TcpProxy database = TcpProxy.to(TestDatabases.postgresAddress())) {
            store.database(); // migrated, as by an earlier deployment
            String yaml = config(upstream, store.generalSettingThrough(database.port()));
            List<String> answered;
            try (GatewayProcess first = GatewayProcess.start("gateway", yaml, folder)) {
                database.stop();
                answered = answeredCalls(first, MASTER_KEY, 40);
                first.kill();
            }
            SpendRepository spendLog = new SpendRepository(store.database());
            assertThat(answered.stream().filter(id -> spendLog.find(id).isPresent()))
                    .as("no row reached the database while it was away").isEmpty();

            database.resume();
            try (GatewayProcess second = GatewayProcess.start("gateway", yaml, folder)) {
                Eventually.until("every answered call has its spend row", Duration.ofSeconds(60),
                        () -> answered.stream().allMatch(id -> spendLog.find(id).isPresent()));
            }
            assertThat(spendLog.find(answered.getLast()).orElseThrow().status()).isEqualTo(200);
        }
    }
}
