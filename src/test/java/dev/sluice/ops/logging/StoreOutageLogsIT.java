package dev.sluice.ops.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar with JSON logs on, its database cut by a proxy while a caller presents keys it
 * has never seen: every line of its output stays one JSON object, the outage is
 * one {@code store.unreachable} WARN per cause and one {@code store.reachable} INFO, and no
 * stack trace or {@code java.util.logging} line is printed for the failed key look-ups.
 */
class StoreOutageLogsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MASTER = "sk-1234";

    @TempDir
    Path folder;

    @Test
    void aDatabaseOutageIsOneWarnPerCauseAndOneInfoInJsonLines() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress());
                GatewayProcess gateway = GatewayProcess.start("a", """
                        model_list:
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:9/v1"}}
                        general_settings:
                          master_key: %s
                          auth_failure_limit: 1000
                          %s
                        """.formatted(MASTER, store.generalSettingThrough(proxy.port())), folder, Map.of("JSON_LOGS", "True"))) {
            assertThat(gateway.get("/health/readiness").body()).contains("connected");

            proxy.stop();
            for (int i = 0; i < 30; i++) {
                assertThat(gateway.post("/v1/chat/completions", Chat.body("gpt-a", "hi"),
                        "Authorization", "Bearer sk-never-seen-" + i).statusCode()).isEqualTo(503);
            }
            proxy.resume();
            Eventually.until("the store is reachable again", Duration.ofSeconds(30),
                    () -> gateway.get("/health/readiness").body().contains("\"connected\""));
            Eventually.until("its end is logged", Duration.ofSeconds(10), () -> gateway.output().contains("store.reachable"));

            List<JsonNode> lines = jsonLines(gateway.output());
            List<JsonNode> down = events(lines, "store.unreachable");
            assertThat(down).as("one per cause").hasSizeBetween(1, 4)
                    .allSatisfy(line -> assertThat(line.path("level").asText()).isEqualTo("WARN"));
            assertThat(down).allSatisfy(line -> assertThat(line.has("exception")).isFalse());
            assertThat(events(lines, "store.reachable")).singleElement()
                    .satisfies(line -> assertThat(line.path("level").asText()).isEqualTo("INFO"));
            assertThat(lines).noneSatisfy(line -> assertThat(line.path("message").asText())
                    .contains("Exception thrown during asynchronous load"));
            assertThat(lines).as("no stack trace").noneSatisfy(line -> assertThat(line.has("exception")).isTrue());
        }
    }

    /** Every line of the output, each of which must be one JSON object. */
    private static List<JsonNode> jsonLines(String output) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            assertThat(line).as("a JSON line").startsWith("{");
            lines.add(JSON.readTree(line));
        }
        return lines;
    }

    private static List<JsonNode> events(List<JsonNode> lines, String event) {
        return lines.stream().filter(line -> line.path("event").asText().equals(event)).toList();
    }
}
