package dev.sluice.ops.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar with JSON logs on, run as an operator runs it ({@code java -jar target/sluice.jar}),
 * its stderr read whole: every line is one JSON object with the standard fields, the events
 * carry their fields, and no key the gateway was given or shown appears anywhere in its output,
 * after calls that log: a wrong key, an upstream 500 whose body repeats the upstream key, key
 * and model management with secrets in their bodies.
 */
class JsonLogsIT {
    private static final Path JAR = Path.of(System.getProperty("sluice.jar", "target/sluice.jar")).toAbsolutePath();
    private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");

    private static final String MASTER_KEY = "sk-master-" + random();
    private static final String UPSTREAM_KEY = "sk-upstream-" + random();
    private static final String ADDED_MODEL_KEY = "sk-added-" + random();
    private static final String WRONG_KEY = "sk-wrong-" + random();
    private static final String DB_PASSWORD = "pw" + random();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path folder;

    private static String random() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** A started gateway: its process, its port (0 when it never started) and its output files. */
    private record Gateway(Process process, int port, Path stdout, Path stderr) {}

    private Gateway start(String yaml, Map<String, String> env) throws Exception {
        Path config = Files.writeString(folder.resolve("config.yaml"), yaml);
        Path stdout = folder.resolve("stdout.log");
        Path stderr = folder.resolve("stderr.log");
        ProcessBuilder builder = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "--config", config.toString(),
                "--port", "0", "--host", "127.0.0.1")
                .directory(folder.toFile())
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        builder.environment().remove("JSON_LOGS");
        builder.environment().putAll(env);
        Process process = builder.start();
        // Started (its port named), or ended without starting: 0 stands for the latter.
        int port = Eventually.value("the gateway starts or ends", Duration.ofSeconds(60),
                () -> startedPortNow(stderr).or(() -> process.isAlive() ? Optional.empty() : Optional.of(0)));
        return new Gateway(process, port, stdout, stderr);
    }

    private static Optional<Integer> startedPortNow(Path stderr) {
        try {
            return startedPort(stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The port named by the {@code server.started} line, once it is written. */
    private static Optional<Integer> startedPort(Path stderr) throws IOException {
        for (String line : Files.readAllLines(stderr, StandardCharsets.UTF_8)) {
            if (line.contains("\"event\":\"server.started\"")) {
                String address = JSON.readTree(line).path("address").asText();
                return Optional.of(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
            }
        }
        return Optional.empty();
    }

    /** Stops the gateway with SIGTERM, so its shutdown lines are written too, and returns its stderr. */
    private static String stop(Gateway gateway) throws Exception {
        gateway.process().destroy();
        if (!gateway.process().waitFor(20, TimeUnit.SECONDS)) {
            gateway.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String stderr = Files.readString(gateway.stderr(), StandardCharsets.UTF_8);
        System.out.println("---- gateway stderr ----\n" + stderr);
        return stderr;
    }

    private HttpResponse<String> post(Gateway gateway, String path, String key, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                        .timeout(Duration.ofSeconds(20))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(Gateway gateway, String path, String key) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                        .timeout(Duration.ofSeconds(20))
                        .header("Authorization", "Bearer " + key).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Every line of {@code stderr}, each asserted to be one JSON object with the standard fields. */
    private static List<JsonNode> jsonLines(String stderr) throws IOException {
        assertThat(stderr).as("stderr").isNotBlank().endsWith("\n");
        List<JsonNode> lines = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            JsonNode json;
            try {
                json = JSON.readTree(line);
            } catch (IOException e) {
                throw new AssertionError("a stderr line is not JSON: " + line + "\nstderr:\n" + stderr, e);
            }
            assertThat(json.isObject()).as(line).isTrue();
            assertThat(json.path("timestamp").asText()).as(line).matches(TIMESTAMP);
            assertThat(json.path("level").asText()).as(line).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
            for (String field : List.of("logger", "thread", "message")) {
                assertThat(json.path(field).isTextual()).as(field + " in " + line).isTrue();
            }
            lines.add(json);
        }
        return lines;
    }

    private static List<JsonNode> events(List<JsonNode> lines, String event) {
        return lines.stream().filter(line -> line.path("event").asText().equals(event)).toList();
    }

    @Test
    void jsonLogsTrueWritesEveryLineAsJsonAndNoKeyAppearsInTheOutput() throws Exception {
        String echoedKey = "{\"error\":{\"message\":\"Incorrect API key provided: " + UPSTREAM_KEY
                + " (Authorization: Bearer " + UPSTREAM_KEY + ")\",\"type\":\"server_error\"}}";
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up",
                new Reply(500, echoedKey, null), new Reply(500, echoedKey, null))) {
            String yaml = """
                    model_list:
                      - model_name: g
                        litellm_params: {model: openai/m, api_base: '%s', api_key: '%s'}
                        model_info: {id: dep-1}
                    router_settings:
                      num_retries: 1
                    general_settings:
                      master_key: '%s'
                    """.formatted(upstream.baseUrl(), UPSTREAM_KEY, MASTER_KEY);
            Gateway gateway = start(yaml, Map.of("JSON_LOGS", "True", "SLUICE_LOG_LEVEL", "DEBUG"));
            String stderr;
            String virtualKey;
            try {
                assertThat(gateway.port()).as("started:\n" + Files.readString(gateway.stderr())).isPositive();

                HttpResponse<String> wrong = post(gateway, "/v1/chat/completions", WRONG_KEY, Chat.body("g", "hi"));
                assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(401);

                HttpResponse<String> generated = post(gateway, "/key/generate", MASTER_KEY, "{\"models\": [\"g\"]}");
                assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
                virtualKey = JSON.readTree(generated.body()).path("key").asText();
                assertThat(virtualKey).startsWith("sk-");

                HttpResponse<String> failed = post(gateway, "/v1/chat/completions", virtualKey, Chat.body("g", "hi"));
                assertThat(failed.statusCode()).as(failed.body()).isEqualTo(500);
                assertThat(upstream.calls()).isEqualTo(2);

                assertThat(get(gateway, "/key/info?key=" + virtualKey, virtualKey).statusCode()).isEqualTo(200);
                assertThat(post(gateway, "/key/block", MASTER_KEY, "{\"key\": \"" + virtualKey + "\"}").statusCode())
                        .isEqualTo(200);
                HttpResponse<String> added = post(gateway, "/model/new", MASTER_KEY, """
                        {"model_name": "live", "litellm_params": {"model": "openai/live", "api_base": "%s",
                         "api_key": "%s"}, "model_info": {"id": "live-1"}}""".formatted(upstream.baseUrl(), ADDED_MODEL_KEY));
                assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
            } finally {
                stderr = stop(gateway);
            }

            List<JsonNode> lines = jsonLines(stderr);
            JsonNode serverError = events(lines, "dispatch.server_error").getFirst();
            assertThat(serverError.path("level").asText()).isEqualTo("WARN");
            assertThat(serverError.path("logger").asText()).isEqualTo("dev.sluice.router");
            assertThat(serverError.path("group").asText()).isEqualTo("g");
            assertThat(serverError.path("deployment").asText()).isEqualTo("dep-1");
            assertThat(serverError.path("status").asInt()).isEqualTo(500);
            assertThat(serverError.path("call_id").asText()).isNotBlank();
            assertThat(events(lines, "router.retry")).hasSize(1);
            assertThat(events(lines, "router.attempt")).hasSize(2);
            assertThat(events(lines, "keys.generated").getFirst().path("token").asText()).hasSize(64);
            assertThat(events(lines, "models.deployment_added").getFirst().path("deployment").asText()).isEqualTo("live-1");
            JsonNode refused = events(lines, "request.refused").getFirst();
            assertThat(refused.path("level").asText()).isEqualTo("INFO");
            assertThat(refused.path("route").asText()).isEqualTo("/v1/chat/completions");
            assertThat(refused.path("caller").asText()).isEqualTo("unauthenticated");
            assertThat(refused.path("status").asInt()).isEqualTo(401);
            assertThat(refused.path("code").asText()).isEqualTo("invalid_api_key");

            String output = stderr + Files.readString(gateway.stdout(), StandardCharsets.UTF_8);
            for (String secret : List.of(MASTER_KEY, virtualKey, UPSTREAM_KEY, ADDED_MODEL_KEY, WRONG_KEY)) {
                assertThat(output).as("the output holds a key").doesNotContain(secret);
                assertThat(output).doesNotContain(secret.substring("sk-".length()));
            }
        }
    }

    @Test
    void theConfigsJsonLogsSwitchesJsonOnWithoutTheVariable() throws Exception {
        String yaml = """
                model_list:
                  - model_name: g
                    litellm_params: {model: openai/m, api_base: 'http://127.0.0.1:1/v1', api_key: '%s'}
                litellm_settings:
                  json_logs: true
                  callbacks: ["datadog"]
                """.formatted(UPSTREAM_KEY);
        Gateway gateway = start(yaml, Map.of());
        String stderr = stop(gateway);

        assertThat(gateway.port()).as(stderr).isPositive();
        List<JsonNode> lines = jsonLines(stderr);
        assertThat(events(lines, "config.keys_ignored")).hasSize(1);
        assertThat(events(lines, "server.started")).hasSize(1);
        assertThat(stderr).doesNotContain(UPSTREAM_KEY);
    }

    @Test
    void anUnusableConfigIsReportedAsOneJsonLineWithoutItsPassword() throws Exception {
        String yaml = """
                model_list:
                  - model_name: g
                    litellm_params: {model: openai/m, api_base: 'http://127.0.0.1:1/v1', weight: -1}
                general_settings:
                  database_url: 'postgresql://sluice:%s@127.0.0.1:1/sluice'
                """.formatted(DB_PASSWORD);
        Gateway gateway = start(yaml, Map.of("JSON_LOGS", "1"));
        assertThat(gateway.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        String stderr = Files.readString(gateway.stderr(), StandardCharsets.UTF_8);

        assertThat(gateway.process().exitValue()).as(stderr).isEqualTo(2);
        JsonNode unusable = events(jsonLines(stderr), "config.unusable").getFirst();
        assertThat(unusable.path("level").asText()).isEqualTo("ERROR");
        assertThat(unusable.path("problems").isArray()).isTrue();
        assertThat(unusable.path("problems").toString()).contains("model_list[0].litellm_params.weight: -1 (expected: >= 0)");
        assertThat(stderr).doesNotContain(DB_PASSWORD);
    }
}
