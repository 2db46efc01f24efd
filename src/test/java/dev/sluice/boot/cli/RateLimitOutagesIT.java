package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.VirtualKey;
import dev.sluice.testing.CalendarMinutes;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.RedisServerProcess;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two replicas of the built jar sharing a Redis of their own that is frozen ({@code SIGSTOP}:
 * its connections stay open and nothing answers) and thawed mid-minute, with a key of
 * {@code rpm_limit: 10}: across the outage, or a flap, the minute admits at most ten, counted
 * from what the client was answered. Each scenario has a key of its own and falls in one UTC
 * calendar minute; the replicas, the Redis and the store are started once for all of them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RateLimitOutagesIT {
    private static final String MASTER_KEY = "sk-1234";
    private static final String REDIS_UP = "sluice_redis_up";
    /** The longest a scenario takes, with room: the minute must not roll while it runs. */
    private static final Duration SCENARIO = Duration.ofSeconds(30);

    private final String prefix = TestRedis.newPrefix();
    private Path folder;
    private TestDatabase store;
    private RedisServerProcess redis;
    private MockUpstream upstream;
    private GatewayProcess a;
    private GatewayProcess b;
    private List<GatewayProcess> both;
    /** A roomy key whose calls, while Redis is frozen, go unanswered until each replica's breaker opens. */
    private String elsewhere;

    @BeforeAll
    void startReplicas() throws Exception {
        folder = Files.createTempDirectory("sluice-rate-limit-outages");
        store = TestDatabases.postgres();
        redis = RedisServerProcess.start();
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        // A second for each Redis call: a frozen Redis is noticed within a few, and a busy machine's slow answer is not an outage.
        String yaml = """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                general_settings:
                  master_key: %s
                  %s
                router_settings:
                  redis_url: "%s"
                  redis_key_prefix: "%s"
                  redis_socket_timeout: 1
                """.formatted(upstream.baseUrl(), MASTER_KEY, store.generalSetting(), redis.url(), prefix);
        both = GatewayProcess.startAll(yaml, folder, "a", "b");
        a = both.get(0);
        b = both.get(1);
        elsewhere = generate(a, 1_000);
    }

    @AfterAll
    void stopReplicas() throws Exception {
        try (RedisServerProcess r = redis; TestDatabase s = store; MockUpstream u = upstream) {
            if (both != null) {
                both.forEach(GatewayProcess::close);
            }
        }
    }

    /** A scenario that failed mid-outage leaves Redis frozen: the next starts with it answering. */
    @AfterEach
    void thawed() {
        redis.thaw();
    }

    @BeforeEach
    void bothSharingRedis() {
        for (GatewayProcess replica : both) {
            replica.awaitMetric(replica + " shares state through Redis", REDIS_UP, 1.0);
            Eventually.until(replica + " sees both replicas", Duration.ofSeconds(15),
                    () -> readinessSeesBoth(replica));
        }
    }

    @Test
    void aMinuteSpentBeforeTheOutageAdmitsNothingMoreDuringItOrAfter() throws Exception {
        String key = generate(a, 10);
        long minute = aFreshMinute();
        List<String> outcomes = new ArrayList<>();

        assertThat(admittedAlternately(key, 10, outcomes)).as("the minute's ten: %s", outcomes).isEqualTo(10);

        frozenUntilBothLinksAreDown();
        assertThat(admittedAlternately(key, 10, outcomes)).as("nothing was left to share: %s", outcomes).isZero();

        thawedUntilBothLinksAreUp();
        assertThat(admittedAlternately(key, 4, outcomes)).as("still spent: %s", outcomes).isZero();
        assertThat(counted(key, minute)).as("each admission counted once").isEqualTo(10);
        assertThat(currentMinute()).as("all in one minute").isEqualTo(minute);
    }

    @Test
    void whatWasLeftIsSharedBetweenTheReplicasAndTheMinuteHoldsTenInAll() throws Exception {
        String key = generate(a, 10);
        long minute = aFreshMinute();
        List<String> outcomes = new ArrayList<>();

        assertThat(admittedAlternately(key, 4, outcomes)).as(outcomes.toString()).isEqualTo(4);

        frozenUntilBothLinksAreDown();
        List<String> duringOutage = new ArrayList<>();
        int admitted = admittedAlternately(key, 20, duringOutage);
        outcomes.addAll(duringOutage);
        assertThat(admittedBy("a", duringOutage)).as("a's half of the six left: %s", duringOutage).isEqualTo(3);
        assertThat(admittedBy("b", duringOutage)).as("b's half of the six left: %s", duringOutage).isEqualTo(3);

        thawedUntilBothLinksAreUp();
        Eventually.until("what each admitted alone is in the shared count", Duration.ofSeconds(10),
                () -> counted(key, minute) >= 4 + admitted);
        assertThat(admittedAlternately(key, 4, outcomes)).as("the minute's ten are spent: %s", outcomes).isZero();
        assertThat(admittedBy("a", outcomes) + admittedBy("b", outcomes)).as("admitted in the minute: %s", outcomes)
                .isEqualTo(10);
        assertThat(counted(key, minute)).as("each admission counted once").isEqualTo(10);
        assertThat(currentMinute()).as("all in one minute").isEqualTo(minute);
    }

    @Test
    void throughAFlapTheMinuteStillAdmitsAtMostTen() throws Exception {
        String key = generate(a, 10);
        long minute = aFreshMinute();
        List<String> outcomes = new ArrayList<>();

        assertThat(admittedAlternately(key, 2, outcomes)).as(outcomes.toString()).isEqualTo(2);

        frozenUntilBothLinksAreDown();
        List<String> firstOutage = new ArrayList<>();
        assertThat(admitted(a, key, 10, firstOutage)).as("a's half of the eight left: %s", firstOutage).isEqualTo(4);
        outcomes.addAll(firstOutage);

        thawedUntilBothLinksAreUp();
        Eventually.until("a's four are in the shared count", Duration.ofSeconds(10), () -> counted(key, minute) >= 6);

        frozenUntilBothLinksAreDown();
        List<String> secondOutage = new ArrayList<>();
        int admitted = admittedAlternately(key, 20, secondOutage);
        outcomes.addAll(secondOutage);
        assertThat(admitted).as("at most the four left: %s", secondOutage).isLessThanOrEqualTo(4);

        thawedUntilBothLinksAreUp();
        int total = admittedBy("a", outcomes) + admittedBy("b", outcomes);
        Eventually.until("the second outage's admissions are in the shared count", Duration.ofSeconds(10),
                () -> counted(key, minute) >= total);
        assertThat(admittedAlternately(key, 4, outcomes)).as("after the flap: %s", outcomes)
                .isLessThanOrEqualTo(10 - total);
        assertThat(admittedBy("a", outcomes) + admittedBy("b", outcomes)).as("admitted in the minute: %s", outcomes)
                .isLessThanOrEqualTo(10);
        assertThat(counted(key, minute)).as("each admission counted once")
                .isEqualTo(admittedBy("a", outcomes) + admittedBy("b", outcomes));
        assertThat(currentMinute()).as("all in one minute").isEqualTo(minute);
    }

    /** The limit counts per UTC calendar minute: the scenario, its outages and their ends must fall in one. */
    private static long aFreshMinute() {
        CalendarMinutes.awayFromTheEnd(SCENARIO);
        return currentMinute();
    }

    private static long currentMinute() {
        return Instant.now().getEpochSecond() / 60;
    }

    private void frozenUntilBothLinksAreDown() {
        redis.freeze();
        // Each replica's calls (and beats) go unanswered until its breaker opens; then it decides alone.
        for (GatewayProcess replica : both) {
            Eventually.until(replica + " serves on local state", Duration.ofSeconds(20), () -> {
                if (replica.metric(REDIS_UP) == 0.0) {
                    return true;
                }
                call(replica, elsewhere);
                return false;
            });
        }
    }

    private void thawedUntilBothLinksAreUp() {
        redis.thaw();
        for (GatewayProcess replica : both) {
            Eventually.until(replica + " shares state again", Duration.ofSeconds(15), () -> replica.metric(REDIS_UP) == 1.0);
        }
    }

    /** The requests Redis counted in {@code key}'s window of {@code minute}. */
    private long counted(String key, long minute) {
        String window = prefix + "limits:api_key:" + VirtualKey.hash(key) + ":" + minute;
        return Long.parseLong(Objects.requireNonNullElse(redis.command("HGET", window, "r"), "0"));
    }

    /** {@code calls} calls alternating between the replicas, a first; how many were admitted. */
    private int admittedAlternately(String key, int calls, List<String> outcomes) {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            admitted += admitted(both.get(i % both.size()), key, 1, outcomes);
        }
        return admitted;
    }

    /** {@code calls} calls through {@code replica}; how many were answered 200. Every other answer must be 429. */
    private static int admitted(GatewayProcess replica, String key, int calls, List<String> outcomes) {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            HttpResponse<String> answer = call(replica, key);
            outcomes.add(replica.name() + ":" + answer.statusCode());
            if (answer.statusCode() == 200) {
                admitted++;
            } else {
                assertThat(answer.statusCode()).as("%s: %s", replica.name(), answer.body()).isEqualTo(429);
            }
        }
        return admitted;
    }

    private static int admittedBy(String replica, List<String> outcomes) {
        return (int) outcomes.stream().filter((replica + ":200")::equals).count();
    }

    private static HttpResponse<String> call(GatewayProcess replica, String key) {
        return replica.post("/v1/chat/completions", Chat.body("g", "hello"), "Authorization", "Bearer " + key);
    }

    private static String generate(GatewayProcess replica, int rpm) throws IOException {
        HttpResponse<String> generated = replica.post("/key/generate", "{\"rpm_limit\": " + rpm + "}",
                "Authorization", "Bearer " + MASTER_KEY);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes(StandardCharsets.UTF_8)).path("key").asText();
    }

    private static boolean readinessSeesBoth(GatewayProcess replica) {
        try {
            return Json.parse(replica.get("/health/readiness").body().getBytes(StandardCharsets.UTF_8))
                    .path("redis").path("replicas_seen").asInt() == 2;
        } catch (IOException notJson) {
            return false;
        }
    }
}
