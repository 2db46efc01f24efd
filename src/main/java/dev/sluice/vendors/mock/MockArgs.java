package dev.sluice.vendors.mock;

import java.time.Duration;

/**
 * Reads the flags of {@code sluice mock}. Each flag takes one value, written
 * {@code --flag VALUE} or {@code --flag=VALUE}; a later flag overrides an earlier one.
 * A mistake is reported as one line naming the flag and the value.
 */
public final class MockArgs {

    static final int DEFAULT_PORT = 4100;
    static final String DEFAULT_NAME = "mock";

    static final String USAGE = """
            usage: sluice mock [--api API] [--port N] [--host H] [--name NAME] [--mode MODE] [--delay-ms N]
                               [--max-chars N] [--trigger WORD] [--retry-after N] [--api-key KEY] [--times N]
              --api API         the vendor API to speak (default openai), one of:
            %s  --port N          port to listen on, 0 for any free port (default %d)
              --host H          address to bind (default %s)
              --name NAME       shown as [NAME] in every reply and error (default %s)
              --mode MODE       how to answer model calls (default ok), one of:
            %s  --delay-ms N      slow: wait before answering; streams pause N/10 between chunks (default %d)
              --max-chars N     context: largest prompt, in characters, still accepted (default %d)
              --trigger WORD    policy: refuse prompts containing WORD, any case (default %s)
              --retry-after N   ratelimit: Retry-After seconds (default %d)
              --api-key KEY     auth: the key to accept (default %s)
              --times N         the mode applies to the first N calls, then ok; 0 means always (default 0)
              --help            print this and exit
            """.formatted(apiList(), DEFAULT_PORT, MockOptions.DEFAULT_HOST, DEFAULT_NAME, modeList(),
            MockOptions.DEFAULT_DELAY.toMillis(), MockOptions.DEFAULT_MAX_CHARS, MockOptions.DEFAULT_TRIGGER_WORD,
            MockOptions.DEFAULT_RETRY_AFTER_SECONDS, MockOptions.DEFAULT_API_KEY);

    /** What the command line asks for. */
    public sealed interface Request permits Serve, Help {}

    /** Serve a mock with these options. */
    public record Serve(MockOptions options) implements Request {}

    /** Print the usage and stop. */
    record Help() implements Request {}

    private MockArgs() {}

    /**
     * @param args the arguments after {@code mock}
     * @throws IllegalArgumentException with a one-line message naming the flag and value
     */
    public static Request parse(String[] args) {
        MockOptions options = MockOptions.defaults(DEFAULT_NAME, MockMode.OK).withPort(DEFAULT_PORT);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                return new Help();
            }
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + arg + "'");
            }
            int equals = arg.indexOf('=');
            String flag = equals < 0 ? arg : arg.substring(0, equals);
            String value;
            if (equals >= 0) {
                value = arg.substring(equals + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            options = apply(options, flag, value);
        }
        return new Serve(options);
    }

    private static MockOptions apply(MockOptions options, String flag, String value) {
        return switch (flag) {
            case "--api" -> options.withApi(api(value));
            case "--port" -> options.withPort(integer(flag, value, 0, 65535));
            case "--host" -> options.withHost(text(flag, value));
            case "--name" -> options.withName(text(flag, value));
            case "--mode" -> options.withMode(mode(value));
            case "--delay-ms" -> options.withDelay(Duration.ofMillis(integer(flag, value, 0, Integer.MAX_VALUE)));
            case "--max-chars" -> options.withMaxChars(integer(flag, value, 0, Integer.MAX_VALUE));
            case "--trigger" -> options.withTriggerWord(text(flag, value));
            case "--retry-after" -> options.withRetryAfterSeconds(integer(flag, value, 0, Integer.MAX_VALUE));
            case "--api-key" -> options.withApiKey(text(flag, value));
            case "--times" -> options.withTimes(integer(flag, value, 0, Integer.MAX_VALUE));
            default -> throw new IllegalArgumentException("unknown flag " + flag);
        };
    }

    private static int integer(String flag, String value, int min, int max) {
        try {
            int number = Integer.parseInt(value.trim());
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException notANumber) {
            // reported below, with the range
        }
        String range = max == Integer.MAX_VALUE ? "an integer >= " + min : "an integer " + min + ".." + max;
        throw new IllegalArgumentException(flag + ": '" + value + "' (expected: " + range + ")");
    }

    private static String text(String flag, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException(flag + ": '" + value + "' (expected: not blank)");
        }
        return value;
    }

    private static MockMode mode(String value) {
        try {
            return MockMode.fromCliName(value);
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("--mode: " + unknown.getMessage());
        }
    }

    private static MockApi api(String value) {
        try {
            return MockApi.fromCliName(value);
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("--api: " + unknown.getMessage());
        }
    }

    private static String apiList() {
        StringBuilder list = new StringBuilder();
        for (MockApi api : MockApi.values()) {
            list.append("                    %-10s %s%n".formatted(api.cliName(), api.summary()));
        }
        return list.toString();
    }

    private static String modeList() {
        StringBuilder list = new StringBuilder();
        for (MockMode mode : MockMode.values()) {
            list.append("                    %-10s %s%n".formatted(mode.cliName(), mode.summary()));
        }
        return list.toString();
    }
}
