package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.GatewayProcess;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM the jar serves on: {@code java -jar sluice.jar} with no options hands over to one
 * with the gateway's defaults (a bounded heap, the serial collector), replacing itself so no
 * launcher stays resident; {@code SLUICE_JAVA_OPTS} wins over the defaults, and
 * {@code -Dsluice.launch=here} runs on the JVM as it was started. The flags are read from the
 * serving JVM itself ({@code jcmd VM.flags}), as it applied them.
 */
class JvmDefaultsIT {
    private static final String YAML = """
            model_list:
              - {model_name: g, litellm_params: {model: openai/a, api_base: 'http://127.0.0.1:1/v1', api_key: k}}
            """;

    @TempDir
    Path folder;

    @Test
    void aPlainJavaDashJarServesOnTheDefaultHeapInOneProcess() {
        try (GatewayProcess gateway = GatewayProcess.start("defaults", YAML, folder, Map.of())) {
            String flags = gateway.vmFlags();

            assertThat(flags).contains("-XX:MaxHeapSize=" + defaultMaxHeapBytes(), "-XX:+UseSerialGC",
                    "-XX:+ExitOnOutOfMemoryError");
            if (Runtime.version().feature() >= 22) {
                assertThat(gateway.serving()).as("the launcher replaced itself with the gateway's JVM")
                        .isEqualTo(gateway.launched());
            }
        }
    }

    @Test
    void sluiceJavaOptsWinOverTheDefaultsAndMayNameAnotherCollector() {
        try (GatewayProcess gateway = GatewayProcess.start("opts", YAML, folder,
                Map.of("SLUICE_JAVA_OPTS", " -Xmx200m   -XX:+UseParallelGC -XX:-ExitOnOutOfMemoryError "))) {
            String flags = gateway.vmFlags();

            assertThat(flags).contains("-XX:MaxHeapSize=" + (200L << 20), "-XX:+UseParallelGC")
                    .doesNotContain("-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError");
        }
    }

    @Test
    void launchHereRunsOnTheJvmAsItWasStarted() {
        try (GatewayProcess gateway = GatewayProcess.start("here", YAML, folder,
                Map.of("JAVA_TOOL_OPTIONS", "-Dsluice.launch=here -Xmx150m"))) {
            String flags = gateway.vmFlags();

            assertThat(flags).contains("-XX:MaxHeapSize=" + (150L << 20)).doesNotContain("-XX:+UseSerialGC");
            assertThat(gateway.serving().info().arguments().orElseThrow())
                    .as("no defaults added").doesNotContain(Launcher.GATEWAY_DEFAULTS.get(0));
        }
    }

    /** The default {@code -Xmx} in bytes, read from the launcher's defaults. */
    private static long defaultMaxHeapBytes() {
        String xmx = Launcher.GATEWAY_DEFAULTS.stream().filter(option -> option.startsWith("-Xmx")).findFirst().orElseThrow();
        assertThat(xmx).as("the default heap is given in megabytes").matches("-Xmx\\d+m");
        return Long.parseLong(xmx.substring(4, xmx.length() - 1)) << 20;
    }
}
