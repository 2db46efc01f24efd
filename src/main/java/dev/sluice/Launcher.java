package dev.sluice;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The jar's entry point: runs Sluice on this JVM when it is release 21 or newer, and
 * otherwise re-launches the same jar on the newest JDK >= 21 it can find.
 *
 * <p>This class is compiled for Java 11 and must not refer to any other Sluice class
 * directly, so that {@code java -jar sluice.jar} on an older default {@code java} gets as
 * far as this hand-over instead of failing with UnsupportedClassVersionError.
 */
public final class Launcher {
    private static final int REQUIRED_RELEASE = 21;
    private static final String MAIN_CLASS = "dev.sluice.cli.Main";

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (Runtime.version().feature() >= REQUIRED_RELEASE) {
            runHere(args);
            return;
        }
        Optional<Path> java = findJava();
        if (java.isEmpty()) {
            System.err.println("Sluice needs Java " + REQUIRED_RELEASE + " or newer; this is Java "
                    + Runtime.version().feature() + " and no newer JDK was found."
                    + " Set JAVA_HOME to a JDK >= " + REQUIRED_RELEASE + ".");
            System.exit(1);
        }
        System.exit(relaunch(java.get(), args));
    }

    private static void runHere(String[] args) throws Exception {
        try {
            Class.forName(MAIN_CLASS).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            throw (Error) cause;
        }
    }

    /** The system property that tells the gateway which launcher started it. */
    static final String PARENT_PID_PROPERTY = "sluice.launcher.pid";

    private static int relaunch(Path java, String[] args) throws IOException, InterruptedException, URISyntaxException {
        String jar = new File(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        // JVM options given to this launcher (-Xmx, -D...) apply to the gateway too.
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("--enable-native-access=ALL-UNNAMED");
        // The gateway watches this process: killed outright (SIGKILL), the launcher runs no
        // shutdown hook, and without the watch the gateway would go on alone.
        command.add("-D" + PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid());
        command.add("-cp");
        command.add(jar);
        command.add(MAIN_CLASS);
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).inheritIO().start();
        // Stopping this process (Ctrl-C, SIGTERM) stops the gateway it started.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (child.isAlive()) {
                child.destroy();
                try {
                    child.waitFor();
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }
        }));
        return child.waitFor();
    }

    /** JAVA_HOME when it is new enough, else the newest JDK >= 21 in the usual install folders. */
    private static Optional<Path> findJava() {
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && release(Path.of(javaHome)) >= REQUIRED_RELEASE) {
            return javaBinary(Path.of(javaHome));
        }
        List<Path> roots = new ArrayList<>(List.of(Path.of("/usr/lib/jvm"), Path.of("/opt/java"), Path.of("/usr/local/lib/jvm")));
        String home = System.getProperty("user.home");
        if (home != null) {
            roots.add(Path.of(home, ".sdkman", "candidates", "java"));
            roots.add(Path.of(home, ".jdks"));
        }
        Path best = null;
        int bestRelease = 0;
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> homes = Files.list(root)) {
                for (Path candidate : (Iterable<Path>) homes::iterator) {
                    int release = release(candidate);
                    if (release >= REQUIRED_RELEASE && release > bestRelease && javaBinary(candidate).isPresent()) {
                        best = candidate;
                        bestRelease = release;
                    }
                }
            } catch (IOException ignored) {
                // An unreadable folder holds no usable JDK.
            }
        }
        return best == null ? Optional.empty() : javaBinary(best);
    }

    private static Optional<Path> javaBinary(Path jdkHome) {
        Path java = jdkHome.resolve("bin").resolve("java");
        return Files.isExecutable(java) ? Optional.of(java) : Optional.empty();
    }

    /** The feature release named by a JDK's {@code release} file, or 0 when it has none. */
    private static int release(Path jdkHome) {
        Path release = jdkHome.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        try {
            for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    String feature = version.split("[^0-9]", 2)[0];
                    if (feature.equals("1")) {
                        return 8; // "1.8.0_x" style
                    }
                    return feature.isEmpty() ? 0 : Integer.parseInt(feature);
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            // Treat an unreadable release file as no JDK.
        }
        return 0;
    }
}
