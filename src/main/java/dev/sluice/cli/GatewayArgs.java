package dev.sluice.cli;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The gateway's command line: {@code [--config FILE] [--port N] [--host H] [--strict]}.
 *
 * @param config the config file; empty runs the built-in demo
 * @param strict a deployment of a provider Sluice does not serve stops the start, rather than
 *               being left out with a warning
 */
record GatewayArgs(Optional<Path> config, int port, String host, boolean strict) {
    static final int DEFAULT_PORT = 4000;
    static final String DEFAULT_HOST = "0.0.0.0";

    /** Parses the flags; throws {@link UsageException} naming the flag and value at fault. */
    static GatewayArgs parse(String[] args) {
        Optional<Path> config = Optional.empty();
        int port = DEFAULT_PORT;
        String host = DEFAULT_HOST;
        boolean strict = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            String value;
            if (flag.equals("--strict")) {
                strict = true;
                continue;
            }
            int eq = flag.indexOf('=');
            if (flag.startsWith("--") && eq > 0) {
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            } else if (flag.equals("--config") || flag.equals("--port") || flag.equals("--host")) {
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
                case "--port" -> port = port(value);
                case "--host" -> {
                    if (value.isBlank()) {
                        throw new UsageException("--host: empty (expected: an address to listen on, e.g. 127.0.0.1)");
                    }
                    host = value;
                }
                default -> throw new UsageException("unknown argument: " + flag);
            }
        }
        return new GatewayArgs(config, port, host, strict);
    }

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException("--port: " + value + " (expected: a port from 0 to 65535)");
    }
}
