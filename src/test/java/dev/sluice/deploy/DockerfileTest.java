package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.boot.cli.Main;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Dockerfile, read instruction by instruction (no Docker engine runs the tests): it builds
 * the jar Maven names, runs it as a numeric non-root user on the gateway's port, and checks
 * the liveliness route.
 */
class DockerfileTest {
    private final Dockerfile dockerfile = DeployFiles.dockerfile();

    @Test
    void buildsInATemurinJdkStageThatFetchesDependenciesBeforeItCopiesTheSources() {
        Dockerfile.Stage build = dockerfile.stages().getFirst();
        assertThat(dockerfile.stages()).hasSize(2);
        assertThat(build.image()).isEqualTo("eclipse-temurin:25-jdk");
        assertThat(build.name()).isEqualTo("build");

        int pom = build.indexOf("COPY", "pom.xml");
        int wrapper = build.indexOf("COPY", ".mvn");
        int dependencies = build.indexOf("RUN", "dependency:go-offline");
        int sources = build.indexOf("COPY", "src");
        int packaged = build.indexOf("RUN", "-DskipTests package");
        assertThat(build.instructions().get(pom).arguments()).contains("mvnw");
        assertThat(pom).isNotNegative().isLessThan(dependencies);
        assertThat(wrapper).isNotNegative().isLessThan(dependencies);
        assertThat(dependencies).isLessThan(sources);
        assertThat(sources).isLessThan(packaged);
        assertThat(build.instructions().get(packaged).arguments()).startsWith("./mvnw -q");
    }

    @Test
    void runsTheJarMavenBuildsOnAJre() throws Exception {
        Dockerfile.Stage build = dockerfile.stages().getFirst();
        Dockerfile.Stage runtime = dockerfile.runtime();
        assertThat(runtime.image()).isEqualTo("eclipse-temurin:25-jre");

        String builtJar = build.last("WORKDIR").orElseThrow() + "/" + DeployFiles.builtJar();
        List<String> copy = Arrays.asList(runtime.last("COPY").orElseThrow().split("\\s+"));
        assertThat(copy).containsExactly("--from=" + build.name(), builtJar, "/app/sluice.jar");
        assertThat(DeployFiles.execForm(runtime.last("ENTRYPOINT").orElseThrow()))
                .containsExactly("java", "-jar", "/app/sluice.jar");
    }

    @Test
    void runsAsANumericUserThatIsNotRoot() {
        String user = dockerfile.runtime().last("USER").orElseThrow();
        assertThat(user).matches("\\d+:\\d+");
        assertThat(uid(user)).isPositive();
        assertThat(gid(user)).isPositive();
    }

    @Test
    void exposesTheGatewaysDefaultPortAndChecksItsLivelinessThere() {
        Dockerfile.Stage runtime = dockerfile.runtime();
        assertThat(runtime.last("EXPOSE")).hasValue(String.valueOf(Main.DEFAULT_PORT));

        String healthcheck = runtime.last("HEALTHCHECK").orElseThrow();
        assertThat(healthcheck).contains("/dev/tcp/127.0.0.1/${PORT:-" + Main.DEFAULT_PORT + "} ");
        assertThat(Main.ADDRESS_VARIABLES).contains("PORT");
        assertThat(ProbePaths.requested(healthcheck)).containsExactly("/health/liveliness");
        assertThat(healthcheck).contains("grep -q ' 200 '");
    }

    @Test
    void readsTheConfigFromTheDocumentedPath() {
        List<String> command = DeployFiles.execForm(dockerfile.runtime().last("CMD").orElseThrow());
        assertThat(command).containsExactly("--config", "/app/config.yaml");
        assertThat(DeployFiles.text(Path.of("docs", "deploy.md"))).contains("/app/config.yaml");
    }

    @Test
    void givesItsUserTheStoreFolderUnderTheWorkingDirectory() {
        Dockerfile.Stage runtime = dockerfile.runtime();
        String workdir = runtime.last("WORKDIR").orElseThrow();
        String store = DeployFiles.defaultStoreFolder(workdir);
        String user = runtime.last("USER").orElseThrow();

        assertThat(runtime.last("RUN").orElseThrow()).contains("mkdir -p " + store).contains("chown " + user + " " + store);
        assertThat(DeployFiles.execForm(runtime.last("VOLUME").orElseThrow())).containsExactly(store);
    }

    @Test
    void leavesOutOfTheBuildContextWhatTheBuildDoesNotCopy() {
        List<String> ignored = DeployFiles.text(Path.of(".dockerignore")).lines()
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(ignored).contains("target", ".git", "sluice-data");
        for (Dockerfile.Instruction copy : dockerfile.stages().getFirst().all("COPY")) {
            List<String> words = Arrays.asList(copy.arguments().split("\\s+"));
            for (String source : words.subList(0, words.size() - 1)) {
                assertThat(ignored).as("the build copies %s", source).doesNotContain(source);
            }
        }
    }

    static int uid(String user) {
        return Integer.parseInt(user.split(":")[0]);
    }

    static int gid(String user) {
        return Integer.parseInt(user.split(":")[1]);
    }
}
