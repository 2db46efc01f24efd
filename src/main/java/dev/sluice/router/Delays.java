package dev.sluice.router;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;

/** Waits before a repeat, on the request's own event loop. */
@FunctionalInterface
public interface Delays {
    Future<Void> after(Duration wait);

    static Delays on(Vertx vertx) {
        return wait -> {
            if (wait.isZero() || wait.isNegative()) {
                return Future.succeededFuture();
            }
            return Future.future(promise -> vertx.setTimer(Math.max(1, wait.toMillis()), id -> promise.complete()));
        };
    }
}
