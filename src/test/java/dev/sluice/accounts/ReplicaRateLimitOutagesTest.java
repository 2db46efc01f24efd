package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.CalendarMinutes;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RedisServerProcess;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Two gateways sharing a Redis of their own that is frozen ({@code SIGSTOP}) mid-minute and
 * thawed: a key's {@code rpm_limit} shares only what was left between them, and the minute
 * counts each admission once.
 */
class ReplicaRateLimitOutagesTest {
    private static final String MASTER = "sk-1234";

    @Test
    void twoGatewaysShareOnlyWhatWasLeftOfAMinuteThroughAFrozenRedis() throws Exception {
        String prefix = TestRedis.newPrefix();
        try (TestDatabase store = TestDatabases.postgres();
                RedisServerProcess redis = RedisServerProcess.start();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            String config = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                    general_settings:
                      master_key: %s
                      %s
                    router_settings:
                      redis_url: "%s"
                      redis_key_prefix: "%s"
                      redis_socket_timeout: 0.5
                    """.formatted(upstream.baseUrl(), MASTER, store.generalSetting(), redis.url(), prefix);
            try (TestGateway a = TestGateway.start(config); TestGateway b = TestGateway.start(config)) {
                List<TestGateway> both = List.of(a, b);
                for (TestGateway gateway : both) {
                    Eventually.until("each gateway sees both", Duration.ofSeconds(15),
                            () -> readiness(gateway).path("redis").path("replicas_seen").asInt() == 2);
                }
                String key = generate(a, 10);
                String other = generate(a, 1_000);
                // The limit counts per UTC calendar minute: the outage and its end must fall in one.
                CalendarMinutes.awayFromTheEnd(Duration.ofSeconds(40));
                long minute = Instant.now().getEpochSecond() / 60;

                assertThat(admitted(a, key, 2) + admitted(b, key, 2)).isEqualTo(4);

                redis.freeze();
                // The other key's calls go unanswered by Redis until each gateway's breaker opens.
                for (TestGateway gateway : both) {
                    while (readiness(gateway).path("redis").path("down_since").isMissingNode()) {
                        call(gateway, other);
                    }
                }
                assertThat(admitted(a, key, 10)).as("half of the six left").isEqualTo(3);
                assertThat(admitted(b, key, 10)).as("half of the six left").isEqualTo(3);

                redis.thaw();
                for (TestGateway gateway : both) {
                    Eventually.until(gateway + " shares state again", Duration.ofSeconds(15),
                            () -> readiness(gateway).path("router_state").asText().equals("redis: connected"));
                }
                String window = prefix + "limits:api_key:" + VirtualKey.hash(key) + ":" + minute;
                Eventually.until("the outage's admissions are in the shared count", Duration.ofSeconds(10),
                        () -> counted(redis, window) >= 10);
                assertThat(admitted(a, key, 2) + admitted(b, key, 2)).as("the minute's ten are spent").isZero();
                assertThat(counted(redis, window)).as("each admission counted once").isEqualTo(10);
                assertThat(Instant.now().getEpochSecond() / 60).as("all in one minute").isEqualTo(minute);
            }
        }
    }

    private static long counted(RedisServerProcess redis, String window) {
        return Long.parseLong(Objects.requireNonNullElse(redis.command("HGET", window, "r"), "0"));
    }

    /** Sends {@code calls} chat calls with {@code key} through {@code gateway}; how many were answered (the rest got 429). */
    private static int admitted(TestGateway gateway, String key, int calls) {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            HttpResponse<String> answer = call(gateway, key);
            if (answer.statusCode() == 200) {
                admitted++;
            } else {
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(429);
            }
        }
        return admitted;
    }

    private static HttpResponse<String> call(TestGateway gateway, String key) {
        return gateway.post("/v1/chat/completions", "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "Authorization", "Bearer " + key);
    }

    private static String generate(TestGateway gateway, int rpm) throws Exception {
        HttpResponse<String> generated = gateway.post("/key/generate", "{\"rpm_limit\": " + rpm + "}", "Authorization",
                "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes(StandardCharsets.UTF_8)).path("key").asText();
    }

    private static JsonNode readiness(TestGateway gateway) {
        try {
            return Json.parse(gateway.get("/health/readiness").body().getBytes(StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
