package dev.sluice.store.redis;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/** Brings a Redis answer back to the context of the request that waits on it. */
final class CallerContext {
    private CallerContext() {}

    /**
     * {@code reply}, completed on {@code caller} (the context a request runs on) rather than on
     * the link's event loop, so what follows a Redis answer runs where the request does.
     */
    static <T> Future<T> backOn(Context caller, Future<T> reply) {
        if (caller == null) {
            return reply;
        }
        Promise<T> promise = Promise.promise();
        reply.onComplete(result -> {
            if (Vertx.currentContext() == caller) {
                promise.handle(result);
            } else {
                caller.runOnContext(v -> promise.handle(result));
            }
        });
        return promise.future();
    }
}
