package dev.sluice.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two replicas of the built jar on one config, sharing the local Redis under a key prefix of
 * their own, with the mock upstreams their deployments call: what a registry test class starts
 * once and closes at the end. Mocks are registered by name first, then {@link #deployment}
 * lines refer to them, then {@link #start} writes the config and waits until both replicas
 * share state through Redis and have served a first call (a cold JVM answers its first one
 * slowly). {@link #close} stops the replicas and the mocks and deletes the Redis keys.
 */
final class ReplicaPair implements AutoCloseable {
    private final String prefix = TestRedis.newPrefix();
    private final Map<String, MockUpstream> mocks = new LinkedHashMap<>();
    private GatewayProcess a;
    private GatewayProcess b;
    /** The key the warm-up call presents, for a config with a master key. */
    private String[] warmUpHeaders = new String[0];

    /** Makes the warm-up call with {@code masterKey}, which the config {@link #start} is given sets. */
    void masterKey(String masterKey) {
        warmUpHeaders = new String[] {"Authorization", "Bearer " + masterKey};
    }

    /** Starts a mock upstream named {@code options.name()}. */
    MockUpstream mock(MockOptions options) {
        MockUpstream mock = MockUpstream.start(options);
        mocks.put(options.name(), mock);
        return mock;
    }

    MockUpstream mock(String name) {
        MockUpstream mock = mocks.get(name);
        if (mock == null) {
            throw new IllegalArgumentException("no mock named " + name);
        }
        return mock;
    }

    int requests(String mock) {
        return mock(mock).requests();
    }

    /**
     * One {@code model_list} entry, with the deployment id {@code id}; {@code upstream} is a
     * mock's name or a base URL; {@code params} are more {@code litellm_params}, YAML flow style.
     */
    String deployment(String group, String id, String upstream, String params) {
        String base = upstream.startsWith("http") ? upstream : mock(upstream).baseUrl();
        return "  - {model_name: %s, litellm_params: {model: openai/%s, api_base: %s%s}, model_info: {id: %s}}\n"
                .formatted(group, id, base, params.isEmpty() ? "" : ", " + params, id);
    }

    /**
     * Starts both replicas on {@code modelList} (lines from {@link #deployment}; a group
     * {@code warm-up} is added), {@code topLevel} (more top-level YAML, may be empty) and
     * {@code routerSettings} (lines of {@code router_settings}, indented two spaces).
     */
    void start(Path folder, String modelList, String topLevel, String routerSettings) {
        mock(MockOptions.defaults("warm-up", dev.sluice.vendors.mock.MockMode.OK));
        String yaml = "model_list:\n" + deployment("warm-up", "warm-up", "warm-up", "") + modelList + topLevel
                + "router_settings:\n" + routerSettings + TestRedis.routerSettings(TestRedis.PORT, prefix);
        List<GatewayProcess> replicas = GatewayProcess.startAll(yaml, folder, "a", "b");
        a = replicas.get(0);
        b = replicas.get(1);
        for (GatewayProcess replica : replicas) {
            Eventually.until(replica + " shares state through Redis", Duration.ofSeconds(5),
                    () -> parse(replica.get("/health/readiness").body()).path("router_state").asText().equals("redis: connected"));
            HttpResponse<String> warm = replica.post("/v1/chat/completions", chat("warm-up", "hi", ""), warmUpHeaders);
            assertThat(warm.statusCode()).as("%s warming up: %s", replica, warm.body()).isEqualTo(200);
        }
    }

    GatewayProcess a() {
        return a;
    }

    GatewayProcess b() {
        return b;
    }

    /** The {@code redis_key_prefix} both replicas share. */
    String redisPrefix() {
        return prefix;
    }

    @Override
    public void close() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        mocks.values().forEach(MockUpstream::close);
        TestRedis.deleteKeys(prefix);
    }

    /** A chat body for {@code group}; {@code extra} is more JSON members, each after a comma. */
    static String chat(String group, String prompt, String extra) {
        return "{\"model\":\"" + group + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]" + extra + "}";
    }

    /** A 200 from {@code deployment} of {@code group}, with these routing headers, in the mock's words. */
    static void assertServed(HttpResponse<String> answer, String group, String deployment, int retries, int fallbacks) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-litellm-model-id")).as("served by").hasValue(deployment);
        assertThat(answer.headers().firstValue("x-litellm-model-group")).as("group served").hasValue(group);
        assertThat(answer.headers().firstValue("x-litellm-attempted-retries")).as("retries").hasValue(String.valueOf(retries));
        assertThat(answer.headers().firstValue("x-litellm-attempted-fallbacks")).as("fallbacks").hasValue(String.valueOf(fallbacks));
        assertThat(answer.body()).contains("[" + deployment + "]");
    }

    static String servedBy(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return answer.headers().firstValue("x-litellm-model-id").orElse("(none)");
    }

    static String errorCode(HttpResponse<String> answer) {
        return parse(answer.body()).path("error").path("code").asText();
    }

    static JsonNode parse(String body) {
        try {
            return Json.parse(body.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }
}
