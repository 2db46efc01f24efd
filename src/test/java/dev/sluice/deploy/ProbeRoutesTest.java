package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import dev.sluice.testing.Ports;
import dev.sluice.testing.TestGateway;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every health check the deployment files make (the image's HEALTHCHECK, Compose's and
 * Kubernetes' probes) asks a real gateway for a route it answers 200 to, and no file probes
 * a route the gateway does not serve.
 */
class ProbeRoutesTest {

    @Test
    void everyPathTheDeploymentFilesProbeIsARouteTheGatewayAnswers() {
        Set<String> probed = new TreeSet<>();
        probed.addAll(ProbePaths.requested(DeployFiles.dockerfile().runtime().last("HEALTHCHECK").orElseThrow()));
        List<Object> compose = DeployFiles.list(DeployFiles.at(DeployFiles.yaml(Path.of("docker-compose.yml")),
                "services.sluice.healthcheck.test"));
        probed.addAll(ProbePaths.requested(String.join(" ", compose.stream().map(String::valueOf).toList())));
        var container = DeployFiles.map(DeployFiles.list(DeployFiles.at(
                DeployFiles.documents(Path.of("deploy", "kubernetes", "deployment.yaml")).getFirst(),
                "spec.template.spec.containers")).getFirst());
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            probed.add(String.valueOf(DeployFiles.at(container, probe + ".httpGet.path")));
        }
        assertThat(probed).containsExactly("/health/liveliness", "/health/readiness");

        try (TestGateway gateway = TestGateway.start(Configs.singleDeployment("http://127.0.0.1:" + Ports.refusing(), ""))) {
            for (String path : probed) {
                HttpResponse<String> answer = gateway.get(path);
                assertThat(answer.statusCode()).as(path).isEqualTo(200);
            }
            assertThat(gateway.get("/health/not-a-probe").statusCode()).isEqualTo(404);
        }
    }
}
