package dev.sluice.vendors.mock;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * {@code sluice mock}: runs one mock upstream until the process is stopped, for fault
 * drills against a gateway, e.g. {@code sluice mock --port 18001 --name primary --mode fail}.
 */
public final class MockCommand {

    /** Exit status for a usage mistake. */
    static final int USAGE_ERROR = 2;
    /** Exit status when the mock cannot listen. */
    static final int START_FAILED = 1;

    /** How long the command serves: until {@link #await} returns. */
    @FunctionalInterface
    interface Lifetime {
        void await(MockUpstream upstream) throws InterruptedException;
    }

    private MockCommand() {}

    /**
     * @param args the arguments after {@code mock}
     * @return 0 after a clean shutdown, 1 when it cannot listen, 2 for a usage mistake
     */
    public static int run(String[] args) {
        return run(args, System.out, System.err, MockCommand::untilProcessStops);
    }

    static int run(String[] args, PrintStream out, PrintStream err, Lifetime lifetime) {
        MockArgs.Request request;
        try {
            request = MockArgs.parse(args);
        } catch (IllegalArgumentException mistake) {
            err.println("sluice mock: " + mistake.getMessage());
            err.print(MockArgs.USAGE);
            return USAGE_ERROR;
        }
        if (request instanceof MockArgs.Serve serve) {
            return serve(serve.options(), out, err, lifetime);
        }
        out.print(MockArgs.USAGE);
        return 0;
    }

    private static int serve(MockOptions options, PrintStream out, PrintStream err, Lifetime lifetime) {
        MockUpstream upstream;
        try {
            upstream = MockUpstream.start(options);
        } catch (IllegalStateException cannotListen) {
            err.println("sluice mock: " + cannotListen.getMessage());
            return START_FAILED;
        }
        try (upstream) {
            out.println("mock " + options.name() + " listening on " + upstream.baseUrl()
                    + " in mode " + options.mode().cliName() + timesNote(options));
            lifetime.await(upstream);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static String timesNote(MockOptions options) {
        return options.times() == 0 ? "" : " for the first " + options.times() + " calls, then ok";
    }

    /** Serves until the JVM is asked to stop; the shutdown hook closes the mock before the JVM exits. */
    private static void untilProcessStops(MockUpstream upstream) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            upstream.close();
            stopped.countDown();
        }, "sluice-mock-shutdown"));
        stopped.await();
    }
}
