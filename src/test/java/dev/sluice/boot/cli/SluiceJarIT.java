package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.Ports;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built jar, run as a user runs it: {@code java -jar target/sluice.jar ...}. */
class SluiceJarIT {
    private static final Path JAR = Path.of(System.getProperty("sluice.jar", "target/sluice.jar")).toAbsolutePath();
    private static final String JAVA = ProcessHandle.current().info().command().orElse("java");

    @TempDir
    static Path logs;

    /** Starts the jar with its output (stdout and stderr) going to a file read by {@link #output}. */
    private static Process start(String javaCommand, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(javaCommand, "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(logs, "sluice", ".log");
        // Run where the test's files go: the demo's embedded store (./sluice-data) must not land in the project.
        ProcessBuilder builder = new ProcessBuilder(command).directory(logs.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        LOGS.put(process, log);
        return process;
    }

    private static final Map<Process, Path> LOGS = new java.util.concurrent.ConcurrentHashMap<>();

    private static String output(Process process) throws Exception {
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("process ended").isTrue();
        return Files.readString(LOGS.get(process), StandardCharsets.UTF_8);
    }

    @Test
    void demoServesAChatCompletionWithItsPrintedCurl() throws Exception {
        int port = Ports.free();
        Process demo = start(JAVA, Map.of(), "--port", Integer.toString(port), "--host", "127.0.0.1");
        try {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> ready = Eventually.value("the demo answers readiness", Duration.ofSeconds(30), () -> {
                try {
                    return Optional.of(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/readiness")).build(),
                            HttpResponse.BodyHandlers.ofString()));
                } catch (IOException notYet) {
                    return Optional.empty();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
            assertThat(ready).as("demo answered readiness").isNotNull();
            HttpResponse<String> chat = demoChat(http, port, "demo-chat");
            assertThat(chat.statusCode()).isEqualTo(200);
            assertThat(chat.body()).containsPattern("\\[demo-(east|west)\\]");

            HttpResponse<String> crossVendor = demoChat(http, port, "demo-flaky");
            assertThat(crossVendor.statusCode()).as(crossVendor.body()).isEqualTo(200);
            assertThat(crossVendor.body()).contains("[demo-claude]", "\"object\":\"chat.completion\"");
            assertThat(crossVendor.headers().firstValue("x-litellm-model-group")).contains("demo-claude");
            assertThat(crossVendor.headers().firstValue("x-litellm-attempted-fallbacks")).contains("1");
        } finally {
            demo.destroy();
            assertThat(demo.waitFor(20, TimeUnit.SECONDS)).as("demo stopped on SIGTERM").isTrue();
        }
        String printed = output(demo);
        assertThat(printed).contains("curl -s http://127.0.0.1:" + port + "/v1/chat/completions", "\"model\":\"demo-flaky\"");
    }

    @Test
    void invalidConfigStopsStartUpWithExitCode2NamingThePath(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.yaml");
        Files.writeString(config, """
                model_list:
                  - model_name: a
                    litellm_params: {model: openai/x, api_base: 'http://127.0.0.1:1/v1'}
                  - model_name: b
                    litellm_params: {model: openai/y, api_base: 'http://127.0.0.1:1/v1', weight: -1}
                """);
        Process process = start(JAVA, Map.of(), "--config", config.toString(), "--port", "0");

        String out = output(process);

        assertThat(process.exitValue()).isEqualTo(2);
        assertThat(out).contains("model_list[1].litellm_params.weight: -1 (expected: >= 0)");
    }

    @Test
    void checkConfigPrintsTheEffectiveConfigWithSecretsMasked(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.yaml");
        Files.writeString(config, """
                model_list:
                  - model_name: a
                    litellm_params: {model: openai/x, api_base: 'http://127.0.0.1:1/v1', api_key: os.environ/IT_SECRET_KEY}
                """);
        Process process = start(JAVA, Map.of("IT_SECRET_KEY", "sk-very-secret-value"), "check-config", config.toString());

        String out = output(process);

        assertThat(process.exitValue()).isZero();
        assertThat(out).contains("openai").doesNotContain("sk-very-secret-value");
    }

    /** The chat the demo's printed curl sends, to {@code group}. */
    private static HttpResponse<String> demoChat(HttpClient http, int port, String group) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                        .header("Authorization", "Bearer sk-sluice-demo")
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofSeconds(10))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"model\":\"" + group + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello, Sluice\"}]}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void checkConfigListsDeploymentsOfUnservedProvidersAndStrictRefusesThem(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.yaml");
        Files.writeString(config, """
                model_list:
                  - model_name: a
                    litellm_params: {model: openai/x, api_base: 'http://127.0.0.1:1/v1', api_key: sk-x}
                  - model_name: b
                    litellm_params: {model: sagemaker/endpoint}
                """);

        Process lenient = start(JAVA, Map.of(), "check-config", config.toString());
        String listed = output(lenient);
        assertThat(lenient.exitValue()).isZero();
        assertThat(listed).contains("warning: model_list[1] (model_name b, model sagemaker/endpoint): provider 'sagemaker'"
                + " is not served by Sluice; the deployment is left out", "config OK: 1 deployment(s), 1 left out");

        Process strict = start(JAVA, Map.of(), "check-config", "--strict", config.toString());
        String refused = output(strict);
        assertThat(strict.exitValue()).isEqualTo(2);
        assertThat(refused).contains("model_list[1].litellm_params.model: sagemaker/endpoint (expected: a provider Sluice supports:");
    }

    @Test
    void mockSubcommandRejectsAnUnknownMode() throws Exception {
        Process process = start(JAVA, Map.of(), "mock", "--mode", "explode");

        String out = output(process);

        assertThat(process.exitValue()).isEqualTo(2);
        assertThat(out).contains("explode");
    }

    @Test
    void olderDefaultJavaHandsOverToANewerJdk() throws Exception {
        Path java17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        assumeTrue(Files.isExecutable(java17), "no Java 17 on this machine");
        Process process = start(java17.toString(), Map.of(), "--help");

        String out = output(process);

        assertThat(process.exitValue()).isZero();
        assertThat(out).contains("check-config");
    }

    @Test
    void theGatewayALauncherStartedStopsWhenTheLauncherIsKilled() throws Exception {
        Path java17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        assumeTrue(Files.isExecutable(java17), "no Java 17 on this machine");
        int port = Ports.free();
        Process launcher = start(java17.toString(), Map.of(), "--port", Integer.toString(port), "--host", "127.0.0.1");
        ProcessHandle gateway = Eventually.value("the launcher starts a gateway", Duration.ofSeconds(30),
                () -> launcher.children().findFirst());
        assertThat(gateway).as("the launcher started a gateway").isNotNull();

        try {
            launcher.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook runs in the launcher

            assertThat(gateway.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
        } finally {
            gateway.destroyForcibly();
        }
    }
}
