package dev.sluice;

import java.io.File;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The jar's entry point: starts the gateway on a JVM sized to it, a JDK >= 21 with
 * {@link #GATEWAY_DEFAULTS}, by handing over to one, then runs Sluice there.
 *
 * <p>A JVM left to its defaults sizes itself to the machine (a quarter of its memory for the
 * heap, and GC structures to match), not to the gateway. So unless this JVM is already the
 * one to serve (it has {@code -Dsluice.launch=here}), it starts {@code java} again with the
 * defaults first, then the options given to this JVM, then {@code SLUICE_JAVA_OPTS}: later
 * options win. Where Java can call C (22 and newer) the hand-over replaces this process
 * ({@code execve}), as a shell's {@code exec} does, so nothing of this JVM stays resident;
 * otherwise (an older default {@code java} finding a newer JDK) this process waits for the
 * gateway as its parent, passing on its exit code and its stop.
 *
 * <p>This class is compiled for Java 11 and must not refer to any other Sluice class
 * directly, so that {@code java -jar sluice.jar} on an older default {@code java} gets as
 * far as this hand-over instead of failing with UnsupportedClassVersionError.
 */
public final class Launcher {
    private static final int REQUIRED_RELEASE = 21;
    private static final String MAIN_CLASS = "dev.sluice.boot.cli.Main";

    /** The system property that tells the gateway which launcher started it. */
    static final String PARENT_PID_PROPERTY = "sluice.launcher.pid";
    /** {@code -Dsluice.launch=here}: run on this JVM as it is; set on the JVM handed over to, or by a container. */
    static final String LAUNCH_PROPERTY = "sluice.launch";
    /** Options appended after the defaults and this JVM's own, split on whitespace. */
    static final String OPTIONS_ENV = "SLUICE_JAVA_OPTS";
    /** Environment options a JVM reads by itself: passed on as options (so they win), not again as environment. */
    private static final List<String> JVM_ENV = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS");

    /**
     * The gateway's JVM defaults, chosen by measurement (docs/PERFORMANCE.md, "Streams run —
     * memory defaults"): a heap fixed at what 1,000 open streams need with room to spare (a
     * starting heap any smaller keeps the young generation small and costs throughput), the
     * serial collector (on two cores G1's threads gain nothing and its structures cost
     * resident memory) with a young generation as large as the old (most of a call's objects,
     * and of the embedded store's, die young; at the default third, keyed calls on the
     * embedded store ran at half the rate), and a bound on metaspace so a class-loading leak fails instead of
     * growing. Thread stacks, the code cache and direct memory keep the JVM's defaults: only
     * what is touched of them is resident, and direct memory's default follows the heap.
     * An {@code OutOfMemoryError} ends the process: a JVM out of heap may have lost any thread
     * (an event loop, the acceptor) and keeps answering liveness probes while serving nothing,
     * where a process that exits is started again by its orchestrator.
     */
    public static final List<String> GATEWAY_DEFAULTS = List.of(
            "-Xmx112m", "-Xms112m", "-XX:+UseSerialGC", "-XX:NewRatio=1", "-XX:MaxMetaspaceSize=128m",
            "-XX:+ExitOnOutOfMemoryError");

    /**
     * Lets Netty use {@code sun.misc.Unsafe} on Java 23 and newer, where the option exists; on
     * Java 25 Netty turns Unsafe off unless it is given. Without it every byte Netty writes to
     * a socket buffer goes through a checked {@code ByteBuffer} call: on the open path that
     * cost more CPU per call than the gateway's routing (docs/PERFORMANCE.md, run N).
     */
    static final String UNSAFE_MEMORY_ACCESS = "--sun-misc-unsafe-memory-access=allow";
    private static final int UNSAFE_MEMORY_ACCESS_RELEASE = 23;

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (runsHere(args)) {
            runHere(args);
            return;
        }
        Optional<Path> java = Runtime.version().feature() >= REQUIRED_RELEASE
                ? javaBinary(Path.of(System.getProperty("java.home")))
                : findJava();
        if (java.isEmpty()) {
            System.err.println("Sluice needs Java " + REQUIRED_RELEASE + " or newer; this is Java "
                    + Runtime.version().feature() + " and no newer JDK was found."
                    + " Set JAVA_HOME to a JDK >= " + REQUIRED_RELEASE + ".");
            System.exit(1);
        }
        List<String> command = gatewayCommand(java.get(), args);
        Map<String, String> env = new HashMap<>(System.getenv());
        JVM_ENV.forEach(env::remove);
        // glibc gives each thread that mallocs an arena of its own and keeps what is freed
        // there; two arenas measured 8 MB less at the streams run's peak.
        env.putIfAbsent("MALLOC_ARENA_MAX", "2");
        Replacement.exec(command, env);
        // Still here: this Java cannot replace its process, so the gateway runs as its child.
        System.exit(relaunch(command, env));
    }

    /**
     * Whether to run on this JVM as it is: it was handed over to (or told so), or it runs the
     * mock upstream, which stands in for a provider in benchmarks and keeps the JVM's defaults.
     */
    private static boolean runsHere(String[] args) {
        if (Runtime.version().feature() < REQUIRED_RELEASE) {
            return false;
        }
        return "here".equals(System.getProperty(LAUNCH_PROPERTY)) || runsMock(args);
    }

    private static boolean runsMock(String[] args) {
        return args.length > 0 && args[0].equals("mock");
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

    /**
     * {@code java}, the defaults (not for the mock), this JVM's own options,
     * {@code SLUICE_JAVA_OPTS}, then the gateway's class and arguments.
     */
    static List<String> gatewayCommand(Path java, String[] args) throws URISyntaxException {
        // The class path this JVM was given: the jar under -jar, every entry under -cp.
        String classPath = System.getProperty("java.class.path", "");
        String jar = classPath.isEmpty()
                ? new File(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath()
                : classPath;
        List<String> given = new ArrayList<>(ManagementFactory.getRuntimeMXBean().getInputArguments());
        String extra = System.getenv(OPTIONS_ENV);
        if (extra != null && !extra.isBlank()) {
            given.addAll(List.of(extra.trim().split("\\s+")));
        }
        return gatewayCommand(java, jar, given, args);
    }

    /**
     * The command for {@code given} options (this JVM's, then {@code SLUICE_JAVA_OPTS}). A
     * collector the caller names replaces the default one, since a JVM refuses two; a heap
     * size the caller names replaces both default heap sizes, since a default starting heap
     * above the caller's maximum would stop the JVM from starting.
     */
    static List<String> gatewayCommand(Path java, String jar, List<String> given, String[] args) {
        boolean namesCollector = given.stream().anyMatch(option -> option.matches("-XX:\\+Use\\w+GC"));
        boolean namesHeap = given.stream().anyMatch(Launcher::sizesHeap);
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        if (!runsMock(args)) {
            GATEWAY_DEFAULTS.stream()
                    .filter(option -> !(namesCollector && (option.endsWith("GC") || option.startsWith("-XX:NewRatio"))))
                    .filter(option -> !(namesHeap && sizesHeap(option)))
                    .forEach(command::add);
            boolean namesUnsafeAccess = given.stream().anyMatch(option -> option.startsWith("--sun-misc-unsafe-memory-access"));
            if (!namesUnsafeAccess && release(jdkHome(java)) >= UNSAFE_MEMORY_ACCESS_RELEASE) {
                command.add(UNSAFE_MEMORY_ACCESS);
            }
        }
        command.addAll(given);
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-D" + LAUNCH_PROPERTY + "=here");
        command.add("-cp");
        command.add(jar);
        command.add(MAIN_CLASS);
        command.addAll(List.of(args));
        return command;
    }

    /** Whether a JVM option sets the heap's size, maximum or starting, absolutely or as a share of memory. */
    private static boolean sizesHeap(String option) {
        return option.startsWith("-Xmx") || option.startsWith("-Xms") || option.startsWith("-XX:MaxHeapSize=")
                || option.startsWith("-XX:InitialHeapSize=") || option.startsWith("-XX:MinHeapSize=")
                || option.matches("-XX:(Max|Initial|Min)RAMPercentage=.*") || option.startsWith("-XX:MaxRAM=");
    }

    private static int relaunch(List<String> gateway, Map<String, String> env) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(gateway);
        // The gateway watches this process: killed outright (SIGKILL), the launcher runs no
        // shutdown hook, and without the watch the gateway would go on alone.
        command.add(1, "-D" + PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid());
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().clear();
        builder.environment().putAll(env);
        Process child = builder.start();
        // SIGTERM and SIGINT are passed on, and this process ends with the gateway's exit code
        // (0 after a clean drain) rather than the 143 the JVM would give a signalled exit.
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), received -> {
                    child.destroy();
                    try {
                        System.exit(child.waitFor());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (IllegalArgumentException e) {
                // Kept by the JVM (-Xrs): the shutdown hook below still stops the gateway.
            }
        }
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

    /** The JDK a {@code bin/java} binary belongs to (a path with no parent folder stands for none). */
    private static Path jdkHome(Path java) {
        Path bin = java.toAbsolutePath().getParent();
        return bin == null || bin.getParent() == null ? java : bin.getParent();
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

    /**
     * Replaces this process with another program through C's {@code execve}, called with the
     * foreign function API of Java 22 and newer. That API is reached by reflection because this
     * class is compiled for Java 11.
     */
    static final class Replacement {
        private static final String FOREIGN = "java.lang.foreign.";

        private Replacement() {}

        /** Does not return when the process is replaced; returns when this Java cannot, or the call failed. */
        static void exec(List<String> command, Map<String, String> env) {
            if (Runtime.version().feature() < 22 || !System.getProperty("os.name").toLowerCase().contains("linux")) {
                return;
            }
            try {
                Object linker = type("Linker").getMethod("nativeLinker").invoke(null);
                Optional<?> execve = (Optional<?>) type("SymbolLookup").getMethod("find", String.class)
                        .invoke(type("Linker").getMethod("defaultLookup").invoke(linker), "execve");
                if (execve.isEmpty()) {
                    return;
                }
                Object address = type("ValueLayout").getField("ADDRESS").get(null);
                Object layouts = Array.newInstance(type("MemoryLayout"), 3);
                for (int i = 0; i < 3; i++) {
                    Array.set(layouts, i, address);
                }
                Object descriptor = type("FunctionDescriptor").getMethod("of", type("MemoryLayout"), layouts.getClass())
                        .invoke(null, type("ValueLayout").getField("JAVA_INT").get(null), layouts);
                Object noOptions = Array.newInstance(type("Linker$Option"), 0);
                MethodHandle call = (MethodHandle) type("Linker").getMethod("downcallHandle", type("MemorySegment"),
                        type("FunctionDescriptor"), noOptions.getClass()).invoke(linker, execve.get(), descriptor, noOptions);
                Object arena = type("Arena").getMethod("global").invoke(null);
                List<String> environment = new ArrayList<>();
                env.forEach((name, value) -> environment.add(name + "=" + value));
                Object path = cString(arena, command.get(0));
                Object argv = cStrings(arena, address, command);
                Object envp = cStrings(arena, address, environment);
                System.out.flush();
                System.err.flush();
                call.invokeWithArguments(path, argv, envp);
                // execve returns only when it failed: fall back to a child process.
            } catch (Throwable cannot) {
                // No foreign function access here (an older Java, or native access refused).
            }
        }

        private static Class<?> type(String name) throws ClassNotFoundException {
            return Class.forName(FOREIGN + name);
        }

        private static Object cString(Object arena, String text) throws ReflectiveOperationException {
            return type("SegmentAllocator").getMethod("allocateFrom", String.class).invoke(arena, text);
        }

        /** A NULL-terminated array of pointers to C strings, as execve takes its arguments and environment. */
        private static Object cStrings(Object arena, Object address, List<String> texts) throws ReflectiveOperationException {
            Object array = type("SegmentAllocator").getMethod("allocate", long.class).invoke(arena, 8L * (texts.size() + 1));
            Method set = type("MemorySegment").getMethod("setAtIndex", type("AddressLayout"), long.class, type("MemorySegment"));
            for (int i = 0; i < texts.size(); i++) {
                set.invoke(array, address, (long) i, cString(arena, texts.get(i)));
            }
            set.invoke(array, address, (long) texts.size(), type("MemorySegment").getField("NULL").get(null));
            return array;
        }
    }
}
