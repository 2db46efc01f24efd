package dev.sluice.boot.cli;

import dev.sluice.boot.GatewayServer;
import dev.sluice.boot.demo.Demo;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.ConfigPrinter;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UnsetVariableWarnings;
import dev.sluice.ops.logging.LogFormat;
import dev.sluice.ops.logging.LogLineEncoder;
import dev.sluice.router.strategy.LatencyArgs;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.mock.MockCommand;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sluice's command line.
 *
 * <pre>
 * sluice [--config FILE] [--port N] [--host H]   run the gateway (the built-in demo without --config)
 * sluice mock --port N --name NAME --mode MODE   run a mock OpenAI-compatible upstream
 * sluice check-config [--strict] FILE            validate a config and print the effective values
 * </pre>
 *
 * Exit codes: 0 after a clean stop, 1 when the server cannot start, 2 for a bad command
 * line or config.
 */
public final class Main {
    /** The port the gateway serves on without {@code --port}: LiteLLM's, and the one the container files expose. */
    public static final int DEFAULT_PORT = GatewayArgs.DEFAULT_PORT;
    /** The variables that stand for {@code --port} and {@code --host} when those are not given, as for LiteLLM. */
    public static final List<String> ADDRESS_VARIABLES = List.of(GatewayArgs.PORT_VARIABLE, GatewayArgs.HOST_VARIABLE);

    static final String USAGE = """
            Usage:
              java -jar sluice.jar [--config FILE] [--port N] [--host H]
                  Run the gateway on H:N (default 0.0.0.0:4000, or $HOST and $PORT). Without
                  --config, run the built-in demo: mock upstreams in this process and a demo
                  config. LiteLLM's --num_workers N, --detailed_debug and --debug are accepted
                  and have no effect.
              java -jar sluice.jar mock --port N --name NAME --mode MODE [flags]
                  Run a mock OpenAI-compatible upstream (see 'mock --help').
              java -jar sluice.jar check-config [--strict] FILE
                  Validate a LiteLLM-style config.yaml and print the effective config. Deployments
                  of providers Sluice does not serve are listed and left out; with --strict they
                  are errors. --strict also applies to the gateway: [--strict] --config FILE.
            """;

    private Main() {}

    /**
     * Started by the launcher (an older default {@code java} handing over to a newer JDK),
     * the gateway stops when the launcher ends, however it ends: a launcher killed with
     * SIGKILL cannot stop its child itself.
     */
    private static void stopWithLauncher() {
        String launcher = System.getProperty("sluice.launcher.pid");
        if (launcher == null) {
            return;
        }
        try {
            ProcessHandle.of(Long.parseLong(launcher)).ifPresentOrElse(
                    parent -> parent.onExit().thenRun(() -> System.exit(143)),
                    () -> System.exit(143));
        } catch (NumberFormatException e) {
            System.err.println("sluice.launcher.pid: " + launcher + " (expected: a process id); not watched");
        }
    }

    public static void main(String[] args) {
        System.setProperty("vertx.logger-delegate-factory-class-name", "io.vertx.core.logging.SLF4JLogDelegateFactory");
        // Netty's pooled allocator: measured 35 % more streamed calls per second than its
        // default on the relay path (docs/PERFORMANCE.md). Set before any Netty class loads.
        defaultProperty("io.netty.allocator.type", "pooled");
        // An arena per event loop, where Netty's default is two per core: each arena holds
        // chunks of its own, and with Netty free to use Unsafe (direct buffers preferred),
        // the extra arenas took 10-20 MB more at the streams run's peak.
        String arenas = Integer.toString(Runtime.getRuntime().availableProcessors());
        defaultProperty("io.netty.allocator.numDirectArenas", arenas);
        defaultProperty("io.netty.allocator.numHeapArenas", arenas);
        stopWithLauncher();
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
        // 0: a command that finished, or a server stopped by a signal whose shutdown hooks
        // are running; returning lets the JVM end on its own without blocking those hooks.
    }

    private static void defaultProperty(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }

    static int run(String[] args) {
        if (args.length > 0) {
            switch (args[0]) {
                case "mock":
                    return MockCommand.run(List.of(args).subList(1, args.length).toArray(String[]::new));
                case "check-config":
                    return checkConfig(args);
                case "--help", "-h", "help":
                    System.out.print(USAGE);
                    return 0;
                default:
                    break;
            }
        }
        try {
            return serve(GatewayArgs.parse(args, System.getenv()));
        } catch (UsageException e) {
            System.err.println("sluice: " + e.getMessage());
            System.err.print(USAGE);
            return 2;
        }
    }

    private static int checkConfig(String[] args) {
        boolean strict = args.length == 3 && args[1].equals("--strict");
        if (args.length != 2 && !strict) {
            System.err.println("sluice: check-config takes [--strict] and exactly one config file");
            System.err.print(USAGE);
            return 2;
        }
        String file = args[args.length - 1];
        try {
            SluiceConfig config = load(Path.of(file), strict);
            System.out.print(ConfigPrinter.print(config));
            if (!config.ignoredKeys().isEmpty()) {
                System.err.println("warning: " + ignoredKeysWarning(config.ignoredKeys()));
            }
            config.unserved().forEach(d -> System.err.println("warning: " + d.describe()));
            List<String> unset = UnsetVariableWarnings.of(config);
            unset.forEach(line -> System.err.println("warning: " + line));
            System.err.println("config OK: " + config.deployments().size() + " deployment(s)"
                    + (config.unserved().isEmpty() ? "" : ", " + config.unserved().size() + " left out (provider not served)")
                    + (unset.isEmpty() ? "" : ", " + unset.size() + " with unset environment variables (their calls fail)"));
            return 0;
        } catch (ConfigException e) {
            reportConfigErrors(file, e);
            return 2;
        }
    }

    private static int serve(GatewayArgs args) {
        Logger log = LoggerFactory.getLogger(Main.class);
        Demo demo = null;
        SluiceConfig config;
        try {
            if (args.config().isPresent()) {
                config = load(args.config().get(), args.strict());
            } else {
                demo = Demo.start();
                config = demo.config();
            }
        } catch (ConfigException e) {
            String source = args.config().map(Path::toString).orElse("demo config");
            if (LogLineEncoder.jsonInUse()) {
                log.error("config.unusable source={} problems={}", source, e.problems());
            } else {
                reportConfigErrors(source, e);
            }
            return 2;
        }
        if (config.jsonLogs()) {
            // Before the gateway's first line: litellm_settings.json_logs asks what JSON_LOGS does.
            LogLineEncoder.useEverywhere(LogFormat.JSON);
        }
        if (LogLineEncoder.jsonInUse()) {
            // The JVM would print an uncaught exception's stack trace as plain lines among the JSON.
            Thread.setDefaultUncaughtExceptionHandler((thread, e) -> log.error("thread.uncaught_exception", e));
        }
        if (!config.ignoredKeys().isEmpty()) {
            log.warn("config.keys_ignored {}", ignoredKeysWarning(config.ignoredKeys()));
        }
        if (!args.ignoredFlags().isEmpty()) {
            log.warn("cli.flags_ignored flags={} reason=\"LiteLLM's flags for its worker processes and debug logging; one Sluice process serves every core\"",
                    args.ignoredFlags());
        }
        config.unserved().forEach(d -> log.warn("config.deployment_unserved {}", d.describe()));
        UnsetVariableWarnings.of(config).forEach(line -> log.warn("config.deployment_variables_unset {}", line));
        GatewayServer server;
        try {
            server = GatewayServer.start(config, args.host(), args.port(), System.getenv());
        } catch (IllegalStateException e) {
            if (LogLineEncoder.jsonInUse()) {
                log.error("server.start_failed reason={}", e.getMessage());
            } else {
                System.err.println("sluice: " + e.getMessage());
            }
            if (demo != null) {
                demo.close();
            }
            return 1;
        }
        log.info("server.started address={} model_groups={} deployments={} transport={}", args.host() + ":" + server.port(),
                config.deployments().stream().map(d -> d.modelName()).distinct().count(), config.deployments().size(),
                server.transport());
        if (demo != null) {
            System.out.println(demo.instructions(server.port()));
        }
        server.exitWhenNotAlive();
        Demo runningDemo = demo;
        GracefulStop.install(() -> {
            // Calls in flight get the drain deadline to finish before anything closes.
            try {
                server.drain(server.drainTimeout());
            } finally {
                if (runningDemo != null) {
                    runningDemo.close();
                }
            }
        }).awaitStopped();
        return 0;
    }

    private static SluiceConfig load(Path file, boolean strict) throws ConfigException {
        Map<String, String> env = System.getenv();
        SluiceConfig config = ConfigLoader.load(file, env, Providers.knownPrefixes(), strict);
        List<String> problems = new java.util.ArrayList<>(Providers.builtIn(env, TimeSource.system().clock()).misconfigurations(config.deployments(), config::fileIndex));
        try {
            LatencyArgs.from(config.router().routing().routingStrategyArgs());
        } catch (IllegalArgumentException e) {
            problems.add("router_settings." + e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return config;
    }

    private static void reportConfigErrors(String source, ConfigException e) {
        System.err.println("sluice: the config in " + source + " cannot be used:");
        for (String problem : e.problems()) {
            System.err.println("  " + problem);
        }
    }

    static String ignoredKeysWarning(List<String> keys) {
        return "Sluice does not act on these config keys (yet); they have no effect: " + String.join(", ", keys);
    }
}
