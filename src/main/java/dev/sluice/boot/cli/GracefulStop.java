package dev.sluice.boot.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * How a running gateway stops: {@code SIGTERM} (what orchestrators send) and {@code SIGINT}
 * (Ctrl-C) run the drain and then end the process with exit code 0, as a stop that went as
 * asked should; left to the JVM, a signal ends it with 143 however cleanly it drained. A
 * shutdown hook runs the same drain for any other way the JVM ends (the launcher watch's
 * {@code System.exit}, {@code SIGHUP}). The drain runs once, whoever asks first; a second
 * asker waits for it to end.
 */
final class GracefulStop {
    private static final Logger log = LoggerFactory.getLogger(GracefulStop.class);

    private final Runnable drain;
    private final AtomicBoolean begun = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private GracefulStop(Runnable drain) {
        this.drain = drain;
    }

    /** Installs the signal handlers and the shutdown hook; returns the stop, to wait on. */
    static GracefulStop install(Runnable drain) {
        GracefulStop stop = new GracefulStop(drain);
        for (String signal : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(signal), received -> {
                    stop.run();
                    System.exit(0);
                });
            } catch (IllegalArgumentException e) {
                // The JVM keeps this signal for itself (-Xrs, or a platform without it): the hook still drains.
                log.warn("shutdown.signal_not_handled signal=SIG{} reason={}", signal, e.getMessage());
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(stop::run, "sluice-shutdown"));
        return stop;
    }

    /** Drains, once; a stop already under way is waited for. */
    void run() {
        if (!begun.compareAndSet(false, true)) {
            awaitStopped();
            return;
        }
        try {
            drain.run();
        } catch (RuntimeException e) {
            // One line: a part that would not close is worth a warning, not a stack trace at every stop.
            log.warn("shutdown.unclean reason={}", e.getMessage());
        } finally {
            stopped.countDown();
        }
    }

    /** Returns once the drain has ended. */
    void awaitStopped() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
