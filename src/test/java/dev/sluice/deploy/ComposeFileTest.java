package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.boot.cli.Main;
import dev.sluice.config.SluiceConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml: Sluice beside PostgreSQL and Redis, configured through LiteLLM's
 * variables. The mounted config is loaded here with the environment the file gives it.
 */
class ComposeFileTest {
    /** {@code ${NAME:-default}} and {@code ${NAME:?message}}, as Compose interpolates them. */
    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?}");

    private final Map<String, Object> compose = DeployFiles.yaml(Path.of("docker-compose.yml"));
    private final Map<String, Object> sluice = DeployFiles.map(DeployFiles.at(compose, "services.sluice"));

    @Test
    void startsSluiceOnlyOnceThePostgresAndRedisItUsesAreHealthy() {
        Map<String, Object> dependsOn = DeployFiles.map(sluice.get("depends_on"));
        assertThat(dependsOn.keySet()).containsExactlyInAnyOrder("postgres", "redis");
        for (String service : dependsOn.keySet()) {
            assertThat(DeployFiles.at(DeployFiles.map(dependsOn.get(service)), "condition")).isEqualTo("service_healthy");
        }
        for (String service : List.of("sluice", "postgres", "redis")) {
            assertThat(DeployFiles.at(compose, "services." + service + ".healthcheck.test")).as(service).isNotNull();
        }
    }

    @Test
    void publishesTheGatewaysDefaultPortAndChecksItsReadinessThere() {
        assertThat(DeployFiles.list(sluice.get("ports"))).containsExactly(Main.DEFAULT_PORT + ":" + Main.DEFAULT_PORT);
        String healthcheck = String.join(" ", healthcheck());
        assertThat(healthcheck).contains("/dev/tcp/127.0.0.1/" + Main.DEFAULT_PORT + " ");
        assertThat(ProbePaths.requested(healthcheck)).containsExactly("/health/readiness");
    }

    @Test
    void setsOnlyVariablesTheGatewayReads() {
        String config = DeployFiles.text(mountedConfig());
        assertThat(environment().keySet()).isNotEmpty().isSubsetOf(DeployFiles.variablesRead(config));
    }

    @Test
    void theMountedConfigLoadsWithTheEnvironmentAndReachesTheComposedServices() {
        List<String> command = DeployFiles.list(sluice.get("command")).stream().map(String::valueOf).toList();
        assertThat(DeployFiles.flagValue(command, "--config")).isEqualTo(mountTarget(mountedConfig()));

        Map<String, String> env = environment();
        SluiceConfig config = DeployFiles.load(DeployFiles.text(mountedConfig()), env);
        // Required, with no default: a published port must not come up with a well-known admin key.
        assertThat(config.general().masterKey().orElseThrow().value()).isEqualTo("required-LITELLM_MASTER_KEY");
        assertThat(config.general().store().databaseUrl().orElseThrow().value()).isEqualTo(env.get("DATABASE_URL"));
        assertThat(config.router().redis().redisHost()).hasValue("redis");
        assertThat(config.router().redis().redisPort()).hasValue(6379);
        assertThat(config.deployments()).extracting(d -> d.modelName()).containsExactly("gpt-4o", "claude-sonnet");
    }

    @Test
    void theDatabaseUrlNamesThePostgresServiceWithItsOwnCredentials() {
        URI url = URI.create(environment().get("DATABASE_URL"));
        Map<String, Object> postgres = DeployFiles.map(DeployFiles.at(compose, "services.postgres.environment"));
        assertThat(url.getScheme()).isEqualTo("postgresql");
        assertThat(url.getHost()).isEqualTo("postgres");
        assertThat(url.getPort()).isEqualTo(5432);
        assertThat(url.getUserInfo()).isEqualTo(postgres.get("POSTGRES_USER") + ":" + postgres.get("POSTGRES_PASSWORD"));
        assertThat(url.getPath()).isEqualTo("/" + postgres.get("POSTGRES_DB"));
        assertThat(DeployFiles.at(compose, "services.redis")).isNotNull();
    }

    @Test
    void givesCallsInFlightTheirDrainBeforeTheContainerIsKilled() {
        SluiceConfig config = DeployFiles.load(DeployFiles.text(mountedConfig()), environment());
        Duration grace = Duration.ofSeconds(Long.parseLong(String.valueOf(sluice.get("stop_grace_period")).replace("s", "")));
        assertThat(grace).isGreaterThanOrEqualTo(config.general().drainTimeout().plusSeconds(5));
    }

    @Test
    void keepsTheStoreFolderOnAVolume() {
        SluiceConfig config = DeployFiles.load(DeployFiles.text(mountedConfig()), environment());
        String workdir = DeployFiles.dockerfile().runtime().last("WORKDIR").orElseThrow();
        assertThat(volumes()).containsValue(DeployFiles.storeFolder(workdir, config));
    }

    private List<String> healthcheck() {
        return DeployFiles.list(DeployFiles.at(sluice, "healthcheck.test")).stream().map(String::valueOf).toList();
    }

    /** The host file of the one bind mount that ends in config.yaml. */
    private Path mountedConfig() {
        List<String> configs = volumes().keySet().stream().filter(source -> source.endsWith("config.yaml")).toList();
        assertThat(configs).hasSize(1);
        assertThat(Path.of(configs.getFirst()).normalize()).isEqualTo(DeployFiles.EXAMPLE_CONFIG);
        return DeployFiles.EXAMPLE_CONFIG;
    }

    private String mountTarget(Path source) {
        return volumes().entrySet().stream().filter(v -> Path.of(v.getKey()).normalize().equals(source))
                .map(Map.Entry::getValue).findFirst().orElseThrow();
    }

    /** The service's volumes, source to target ({@code :ro} dropped). */
    private Map<String, String> volumes() {
        Map<String, String> volumes = new LinkedHashMap<>();
        for (Object volume : DeployFiles.list(sluice.get("volumes"))) {
            String[] parts = String.valueOf(volume).split(":");
            volumes.put(parts[0], parts[1]);
        }
        return volumes;
    }

    /**
     * The service's environment as Compose passes it with nothing exported: defaults taken,
     * and a stand-in for each variable Compose requires ({@code :?}).
     */
    private Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        DeployFiles.map(sluice.get("environment")).forEach((name, value) -> {
            Matcher variable = INTERPOLATION.matcher(String.valueOf(value));
            StringBuilder resolved = new StringBuilder();
            while (variable.find()) {
                String replacement = "?".equals(variable.group(2)) ? "required-" + variable.group(1)
                        : variable.group(3) == null ? "" : variable.group(3);
                variable.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
            }
            variable.appendTail(resolved);
            env.put(name, resolved.toString());
        });
        return env;
    }
}
