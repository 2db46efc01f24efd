package dev.sluice.boot.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The gateway's command line: {@code [--config FILE] [--port N] [--host H] [--strict]}.
 * Without {@code --port} or {@code --host}, the variables {@code PORT} and {@code HOST} give
 * them, as they do LiteLLM's proxy (its Helm chart sets both).
 *
 * @param config       the config file; empty runs the built-in demo
 * @param strict       a deployment of a provider Sluice does not serve stops the start, rather than
 *                     being left out with a warning
 * @param ignoredFlags LiteLLM's flags given, which Sluice accepts so that a LiteLLM start
 *                     command runs, and which change nothing
 */
record GatewayArgs(Optional<Path> config, int port, String host, boolean strict, List<String> ignoredFlags) {
    static final int DEFAULT_PORT = 4000;
    static final String DEFAULT_HOST = "0.0.0.0";
    static final String PORT_VARIABLE = "PORT";
    static final String HOST_VARIABLE = "HOST";

    /** LiteLLM's switches for its debug logging: Sluice's log level is set in its logback config. */
    private static final Set<String> LITELLM_SWITCHES = Set.of("--detailed_debug", "--debug");
    /** LiteLLM's worker processes: one Sluice process serves on every core. */
    private static final Set<String> LITELLM_VALUED = Set.of("--num_workers");

    GatewayArgs {
        ignoredFlags = List.copyOf(ignoredFlags);
    }

    /** Parses the flags alone, as if no variable were set. */
    static GatewayArgs parse(String[] args) {
        return parse(args, Map.of());
    }

    /** Parses the flags; throws {@link UsageException} naming the flag or variable and value at fault. */
    static GatewayArgs parse(String[] args, Map<String, String> env) {
        Optional<Path> config = Optional.empty();
        Integer port = null;
        String host = null;
        boolean strict = false;
        List<String> ignored = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            String value;
            if (flag.equals("--strict")) {
                strict = true;
                continue;
            }
            if (LITELLM_SWITCHES.contains(flag)) {
                ignored.add(flag);
                continue;
            }
            int eq = flag.indexOf('=');
            if (flag.startsWith("--") && eq > 0) {
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            } else if (flag.equals("--config") || flag.equals("--port") || flag.equals("--host") || LITELLM_VALUED.contains(flag)) {
                if (i + 1 >= args.length) {
                    throw new UsageException(flag + " needs a value");
                }
                value = args[++i];
            } else {
                throw new UsageException("unknown argument: " + flag);
            }
            switch (flag) {
                case "--config" -> {
                    if (config.isPresent()) {
                        throw new UsageException("--config given twice (" + config.get() + " and " + value + "); give one file");
                    }
                    config = Optional.of(Path.of(value));
                }
                case "--port" -> port = port("--port: ", value);
                case "--host" -> {
                    if (value.isBlank()) {
                        throw new UsageException("--host: empty (expected: an address to listen on, e.g. 127.0.0.1)");
                    }
                    host = value;
                }
                default -> {
                    if (!LITELLM_VALUED.contains(flag)) {
                        throw new UsageException("unknown argument: " + flag);
                    }
                    ignored.add(flag);
                }
            }
        }
        // As LiteLLM's command line reads them: a variable only for a flag not given.
        if (port == null) {
            port = variable(env, PORT_VARIABLE).map(value -> port(PORT_VARIABLE + "=", value)).orElse(DEFAULT_PORT);
        }
        if (host == null) {
            host = variable(env, HOST_VARIABLE).orElse(DEFAULT_HOST);
        }
        return new GatewayArgs(config, port, host, strict, ignored);
    }

    /** A variable's value; unset and blank are the same. */
    private static Optional<String> variable(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(value -> !value.isEmpty());
    }

    private static int port(String source, String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException(source + value + " (expected: a port from 0 to 65535)");
    }
}
