package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Launcher;
import dev.sluice.boot.cli.Main;
import dev.sluice.config.SluiceConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes: the manifests {@code kubectl apply -k} takes, checked against each other
 * and against the gateway (no cluster runs the tests): probes on its routes, its port, the
 * variables it reads, its drain deadline, the files it writes, its JVM's memory.
 */
class KubernetesManifestsTest {
    private static final Path FOLDER = Path.of("deploy", "kubernetes");

    private final Map<String, Map<String, Object>> byKind = manifests();
    private final Map<String, Object> pod = DeployFiles.map(DeployFiles.at(byKind.get("Deployment"), "spec.template.spec"));
    private final Map<String, Object> container = DeployFiles.map(DeployFiles.list(pod.get("containers")).getFirst());

    @Test
    void theKustomizationListsEveryManifestInTheFolder() throws IOException {
        Map<String, Object> kustomization = DeployFiles.yaml(FOLDER.resolve("kustomization.yaml"));
        try (Stream<Path> files = Files.list(FOLDER)) {
            List<String> manifests = files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(".yaml") && !name.equals("kustomization.yaml")).toList();
            assertThat(DeployFiles.list(kustomization.get("resources"))).containsExactlyInAnyOrderElementsOf(manifests);
        }
        assertThat(byKind.keySet()).containsExactlyInAnyOrder("Deployment", "Service", "ConfigMap", "Secret",
                "PodDisruptionBudget", "HorizontalPodAutoscaler");
    }

    @Test
    void probesTheLivelinessAndReadinessRoutesOnTheGatewaysPort() {
        assertThat(DeployFiles.at(container, "livenessProbe.httpGet.path")).isEqualTo("/health/liveliness");
        assertThat(DeployFiles.at(container, "startupProbe.httpGet.path")).isEqualTo("/health/liveliness");
        assertThat(DeployFiles.at(container, "readinessProbe.httpGet.path")).isEqualTo("/health/readiness");
        for (String probe : List.of("livenessProbe", "startupProbe", "readinessProbe")) {
            assertThat(containerPort(DeployFiles.at(container, probe + ".httpGet.port"))).as(probe).isEqualTo(Main.DEFAULT_PORT);
        }
        Map<String, Object> port = DeployFiles.map(DeployFiles.list(DeployFiles.at(byKind.get("Service"), "spec.ports")).getFirst());
        assertThat(containerPort(port.get("targetPort"))).isEqualTo(Main.DEFAULT_PORT);
    }

    @Test
    void theServiceDisruptionBudgetAndAutoscalerAllSelectTheDeploymentsPods() {
        Map<String, Object> deployment = byKind.get("Deployment");
        Object podLabels = DeployFiles.at(deployment, "spec.template.metadata.labels");
        assertThat(DeployFiles.at(deployment, "spec.selector.matchLabels")).isEqualTo(podLabels);
        assertThat(DeployFiles.at(byKind.get("PodDisruptionBudget"), "spec.selector.matchLabels")).isEqualTo(podLabels);
        assertThat(DeployFiles.at(byKind.get("Service"), "spec.selector")).isEqualTo(podLabels);

        Map<String, Object> target = DeployFiles.map(DeployFiles.at(byKind.get("HorizontalPodAutoscaler"), "spec.scaleTargetRef"));
        assertThat(target).containsEntry("kind", "Deployment").containsEntry("apiVersion", deployment.get("apiVersion"))
                .containsEntry("name", DeployFiles.at(deployment, "metadata.name"));
        assertThat((Integer) DeployFiles.at(byKind.get("HorizontalPodAutoscaler"), "spec.minReplicas"))
                .isGreaterThan((Integer) DeployFiles.at(byKind.get("PodDisruptionBudget"), "spec.minAvailable"));
    }

    @Test
    void everySecretReferencedIsInTheSecretAndEveryVariableSetIsOneTheGatewayReads() {
        Map<String, Object> secret = byKind.get("Secret");
        for (Object entry : DeployFiles.list(container.get("env"))) {
            Object reference = DeployFiles.at(DeployFiles.map(entry), "valueFrom.secretKeyRef");
            if (reference != null) {
                Map<String, Object> key = DeployFiles.map(reference);
                assertThat(key.get("name")).isEqualTo(DeployFiles.at(secret, "metadata.name"));
                assertThat(DeployFiles.map(secret.get("stringData"))).containsKey((String) key.get("key"));
            }
        }
        assertThat(container).doesNotContainKey("envFrom");
        assertThat(environment().keySet()).isNotEmpty().isSubsetOf(DeployFiles.variablesRead(config()));
    }

    @Test
    void theConfigMapHoldsTheExampleConfigWhichLoadsWithThePodsEnvironment() {
        assertThat(config()).isEqualTo(DeployFiles.text(DeployFiles.EXAMPLE_CONFIG));
        SluiceConfig config = DeployFiles.load(config(), environment());
        assertThat(config.general().masterKey()).isPresent();
        assertThat(config.general().store().databaseUrl().orElseThrow().value()).startsWith("postgresql://");
        assertThat(config.router().redis().redisHost()).hasValue("redis");

        Map<String, Object> mount = mount("config");
        List<String> args = DeployFiles.list(container.get("args")).stream().map(String::valueOf).toList();
        assertThat(mount.get("mountPath")).isEqualTo(DeployFiles.flagValue(args, "--config"));
        assertThat(DeployFiles.execForm(DeployFiles.dockerfile().runtime().last("CMD").orElseThrow())).isEqualTo(args);
        assertThat(DeployFiles.at(volume("config"), "configMap.name")).isEqualTo(DeployFiles.at(byKind.get("ConfigMap"), "metadata.name"));
    }

    @Test
    void theGracePeriodCoversThePreStopPauseAndTheDrain() {
        List<Object> preStop = DeployFiles.list(DeployFiles.at(container, "lifecycle.preStop.exec.command"));
        assertThat(preStop).hasSize(2).first().isEqualTo("sleep");
        Duration pause = Duration.ofSeconds(Long.parseLong(String.valueOf(preStop.get(1))));
        Duration drain = DeployFiles.load(config(), environment()).general().drainTimeout();
        assertThat(Duration.ofSeconds((Integer) pod.get("terminationGracePeriodSeconds")))
                .isGreaterThanOrEqualTo(pause.plus(drain).plusSeconds(5));
    }

    @Test
    void runsAsTheImagesNonRootUserOnAReadOnlyRootWithTheFoldersItWritesMounted() {
        String user = DeployFiles.dockerfile().runtime().last("USER").orElseThrow();
        assertThat(DeployFiles.at(pod, "securityContext.runAsNonRoot")).isEqualTo(true);
        assertThat(DeployFiles.at(pod, "securityContext.runAsUser")).isEqualTo(DockerfileTest.uid(user));
        assertThat(DeployFiles.at(pod, "securityContext.runAsGroup")).isEqualTo(DockerfileTest.gid(user));
        assertThat(DeployFiles.at(container, "securityContext.readOnlyRootFilesystem")).isEqualTo(true);
        assertThat(DeployFiles.at(container, "securityContext.allowPrivilegeEscalation")).isEqualTo(false);

        String workdir = DeployFiles.dockerfile().runtime().last("WORKDIR").orElseThrow();
        String store = DeployFiles.storeFolder(workdir, DeployFiles.load(config(), environment()));
        assertThat(mount("data").get("mountPath")).isEqualTo(store);
        assertThat(mount("tmp").get("mountPath")).isEqualTo("/tmp");
        assertThat(volume("data")).containsKey("emptyDir");
        assertThat(volume("tmp")).containsKey("emptyDir");
    }

    @Test
    void theMemoryLimitHoldsTheJvmTheLauncherStarts() {
        long heap = megabytes(Launcher.GATEWAY_DEFAULTS, "-Xmx");
        long metaspace = megabytes(Launcher.GATEWAY_DEFAULTS, "-XX:MaxMetaspaceSize=");
        String limit = String.valueOf(DeployFiles.at(container, "resources.limits.memory"));
        assertThat(limit).endsWith("Mi");
        assertThat(Long.parseLong(limit.replace("Mi", ""))).isGreaterThanOrEqualTo(heap + metaspace + 128);
        assertThat(DeployFiles.at(container, "resources.requests.memory")).isEqualTo(limit);
        assertThat(DeployFiles.at(container, "resources.requests.cpu")).isNotNull();
        assertThat(DeployFiles.at(container, "resources.limits.cpu")).isNotNull();
        assertThat(environment()).doesNotContainKey("SLUICE_JAVA_OPTS");
    }

    private static long megabytes(List<String> options, String prefix) {
        String option = options.stream().filter(o -> o.startsWith(prefix)).findFirst().orElseThrow();
        assertThat(option).endsWith("m");
        return Long.parseLong(option.substring(prefix.length(), option.length() - 1));
    }

    private String config() {
        return String.valueOf(DeployFiles.map(byKind.get("ConfigMap").get("data")).get("config.yaml"));
    }

    /** The container's variables: plain values as written, Secret references as the Secret's values. */
    private Map<String, String> environment() {
        Map<String, Object> secrets = DeployFiles.map(byKind.get("Secret").get("stringData"));
        Map<String, String> env = new HashMap<>();
        for (Object entry : DeployFiles.list(container.get("env"))) {
            Map<String, Object> variable = DeployFiles.map(entry);
            Object key = DeployFiles.at(variable, "valueFrom.secretKeyRef.key");
            env.put((String) variable.get("name"), String.valueOf(key == null ? variable.get("value") : secrets.get(key)));
        }
        return env;
    }

    /** A named container port's number, or the number itself. */
    private int containerPort(Object port) {
        if (port instanceof Integer number) {
            return number;
        }
        return DeployFiles.list(container.get("ports")).stream().map(DeployFiles::map)
                .filter(p -> Objects.equals(p.get("name"), port)).map(p -> (Integer) p.get("containerPort"))
                .findFirst().orElseThrow(() -> new AssertionError("no container port named " + port));
    }

    private Map<String, Object> mount(String volume) {
        return DeployFiles.list(container.get("volumeMounts")).stream().map(DeployFiles::map)
                .filter(m -> volume.equals(m.get("name"))).findFirst().orElseThrow(() -> new AssertionError("no mount of " + volume));
    }

    private Map<String, Object> volume(String name) {
        return DeployFiles.list(pod.get("volumes")).stream().map(DeployFiles::map)
                .filter(v -> name.equals(v.get("name"))).findFirst().orElseThrow(() -> new AssertionError("no volume " + name));
    }

    private static Map<String, Map<String, Object>> manifests() {
        Map<String, Map<String, Object>> byKind = new HashMap<>();
        for (Object resource : DeployFiles.list(DeployFiles.yaml(FOLDER.resolve("kustomization.yaml")).get("resources"))) {
            for (Map<String, Object> manifest : DeployFiles.documents(FOLDER.resolve(String.valueOf(resource)))) {
                assertThat(byKind.put((String) manifest.get("kind"), manifest)).as("one %s", manifest.get("kind")).isNull();
            }
        }
        return byKind;
    }
}
