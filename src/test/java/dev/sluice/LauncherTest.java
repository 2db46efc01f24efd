package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command the launcher hands over to: the defaults first, the caller's options after and winning, never two that clash. */
class LauncherTest {
    private static final Path JAVA = Path.of("/jdk/bin/java");
    private static final String[] ARGS = {"--config", "c.yaml"};

    private static List<String> command(String... given) {
        return Launcher.gatewayCommand(JAVA, "sluice.jar", List.of(given), ARGS);
    }

    @Test
    void withNoOptionsTheDefaultsComeBeforeTheGatewaysClassAndArguments() {
        assertThat(command()).containsExactly("/jdk/bin/java", "-Xmx112m", "-Xms112m", "-XX:+UseSerialGC",
                "-XX:NewRatio=1", "-XX:MaxMetaspaceSize=128m", "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED", "-Dsluice.launch=here", "-cp",
                "sluice.jar", "dev.sluice.boot.cli.Main", "--config", "c.yaml");
    }

    @Test
    void aHeapTheCallerSizesReplacesBothDefaultHeapSizesSoASmallMaximumStillStarts() {
        assertThat(command("-Xmx64m")).doesNotContain("-Xmx112m", "-Xms112m").contains("-Xmx64m", "-XX:+UseSerialGC");
        assertThat(command("-Xms512m")).doesNotContain("-Xmx112m", "-Xms112m").contains("-Xms512m");
        assertThat(command("-XX:MaxRAMPercentage=50")).doesNotContain("-Xmx112m", "-Xms112m");
        assertThat(command("-XX:MaxHeapSize=1g")).doesNotContain("-Xmx112m", "-Xms112m");
        assertThat(command("-XX:MaxRAM=4g")).doesNotContain("-Xmx112m", "-Xms112m");
    }

    @Test
    void aCollectorTheCallerNamesReplacesTheSerialOneAndOtherOptionsFollowTheDefaults() {
        List<String> command = command("-XX:+UseG1GC", "-Dfoo=bar");

        assertThat(command).doesNotContain("-XX:+UseSerialGC", "-XX:NewRatio=1").contains("-Xmx112m", "-XX:MaxMetaspaceSize=128m");
        assertThat(command.indexOf("-Dfoo=bar")).isGreaterThan(command.indexOf("-XX:MaxMetaspaceSize=128m"));
    }

    @Test
    void theGatewaysJvmExitsOnOutOfMemoryUnlessTheCallerSaysOtherwiseAfterIt() {
        assertThat(command()).contains("-XX:+ExitOnOutOfMemoryError");
        assertThat(command("-Xmx64m", "-XX:+UseG1GC")).as("kept when the heap or the collector is named")
                .contains("-XX:+ExitOnOutOfMemoryError");

        List<String> turnedOff = command("-XX:-ExitOnOutOfMemoryError");
        assertThat(turnedOff.lastIndexOf("-XX:-ExitOnOutOfMemoryError"))
                .as("the caller's option comes after the default, and a JVM takes the last")
                .isGreaterThan(turnedOff.indexOf("-XX:+ExitOnOutOfMemoryError"));
    }

    @Test
    void nettyMayUseUnsafeOnAJavaThatHasTheOptionUnlessTheCallerSaysOtherwise(@TempDir Path jdks) throws IOException {
        Path java25 = jdk(jdks.resolve("25"), "25.0.1");
        Path java23 = jdk(jdks.resolve("23"), "23");
        Path java21 = jdk(jdks.resolve("21"), "21.0.5");

        assertThat(Launcher.gatewayCommand(java25, "sluice.jar", List.of(), ARGS)).contains(Launcher.UNSAFE_MEMORY_ACCESS);
        assertThat(Launcher.gatewayCommand(java23, "sluice.jar", List.of(), ARGS)).contains(Launcher.UNSAFE_MEMORY_ACCESS);
        assertThat(Launcher.gatewayCommand(java21, "sluice.jar", List.of(), ARGS)).doesNotContain(Launcher.UNSAFE_MEMORY_ACCESS);
        assertThat(command()).doesNotContain(Launcher.UNSAFE_MEMORY_ACCESS); // no release file: the option may be unknown
        assertThat(Launcher.gatewayCommand(java25, "sluice.jar", List.of("--sun-misc-unsafe-memory-access=deny"), ARGS))
                .doesNotContain(Launcher.UNSAFE_MEMORY_ACCESS).contains("--sun-misc-unsafe-memory-access=deny");
    }

    private static Path jdk(Path home, String version) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + version + "\"\n");
        return home.resolve("bin").resolve("java");
    }

    @Test
    void theMockKeepsTheJvmsDefaults() {
        assertThat(Launcher.gatewayCommand(JAVA, "sluice.jar", List.of(), new String[] {"mock"}))
                .doesNotContain("-Xmx112m", "-XX:+UseSerialGC");
    }
}
