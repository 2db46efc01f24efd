package dev.sluice.server;

import java.time.Duration;

/** A virtual thread that runs one round every interval, from an interval after it starts until it is interrupted. */
final class Rounds {
    private Rounds() {}

    static Thread every(String name, Duration interval, Runnable round) {
        return Thread.ofVirtual().name(name).start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    return;
                }
                round.run();
            }
        });
    }
}
