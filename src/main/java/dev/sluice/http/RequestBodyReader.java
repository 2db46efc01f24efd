package dev.sluice.http;

import dev.sluice.api.ApiError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Reads a request body up to a size limit. An oversized body is refused with a 413 the
 * client can read: when the client waits for {@code 100 Continue} it is answered at once
 * and never sends the body; otherwise the rest of the body is read and thrown away (up to
 * a hard cap) so the client is not reset while still writing. A body that would pass the
 * process-wide {@link BodyBudget} beside the bodies held now is refused the same way, with a
 * 503 and {@code Retry-After}; one larger than the whole budget could never fit, and is a 413.
 */
public final class RequestBodyReader {
    /** Past this many discarded bytes the connection is closed instead. */
    private static final long DISCARD_CAP = 1L << 30;
    /** A buffer holds at most this much; larger configured limits are cut to it. */
    private static final long LARGEST_BODY = Integer.MAX_VALUE - 1024;
    /** How long a client may take to send its whole body. */
    static final long BODY_TIMEOUT_MS = 60_000;

    /** A body still arriving, and since when. */
    private record PendingBody(HttpServerRequest request, Promise<Buffer> body, long startedNanos) {}

    private final long limit;
    /** Whether the limit is the whole body budget, smaller than max_request_size_mb: a body past it could never fit. */
    private final boolean limitedByBudget;
    private final BodyBudget budget;
    private final LongSupplier nanoTime;
    /** Bodies still arriving, oldest first; one sweep a second fails the late ones. */
    private final Set<PendingBody> pending = new LinkedHashSet<>();

    /** Must be created on the event loop whose requests it reads. */
    public RequestBodyReader(Vertx vertx, long limit, BodyBudget budget, LongSupplier nanoTime) {
        this.limit = Math.min(Math.min(limit, LARGEST_BODY), budget.limit());
        this.limitedByBudget = budget.limit() < Math.min(limit, LARGEST_BODY);
        this.budget = budget;
        this.nanoTime = nanoTime;
        // One periodic sweep per event loop rather than a timer per request: a timer
        // created and cancelled for every call is measurable on the hot path.
        vertx.setPeriodic(1000, id -> failLateBodies());
    }

    private void failLateBodies() {
        long deadline = nanoTime.getAsLong() - TimeUnit.MILLISECONDS.toNanos(BODY_TIMEOUT_MS);
        for (Iterator<PendingBody> it = pending.iterator(); it.hasNext(); ) {
            PendingBody late = it.next();
            if (late.startedNanos() > deadline) {
                return; // the rest started later still
            }
            it.remove();
            if (late.body().tryFail(new ApiError(408, "timeout_error",
                    "The request body did not arrive within " + BODY_TIMEOUT_MS / 1000 + " s.", null, "request_timeout"))) {
                late.request().response().putHeader("Connection", "close");
            }
        }
    }

    /**
     * Reads the body, holding its bytes against the {@link BodyBudget} until {@code doneWithBody}
     * completes (or at once when the read fails): a declared length is held before anything is
     * read, a chunked body as its bytes arrive.
     */
    public Future<Buffer> read(HttpServerRequest request, Future<?> doneWithBody) {
        String declared = request.getHeader("Content-Length");
        long length = -1;
        if (declared != null) {
            try {
                length = Long.parseLong(declared.strip());
            } catch (NumberFormatException e) {
                return Future.failedFuture(ApiError.invalidRequest("Content-Length is not a number: " + declared, null, null));
            }
            if (length > limit) {
                return refuse(request, tooLarge());
            }
        }
        HeldBytes held = new HeldBytes();
        if (length > 0 && !held.tryHold(length)) {
            return refuse(request, budget.busy());
        }
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            request.response().writeContinue();
        }
        Promise<Buffer> body = Promise.promise();
        Arriving arriving = new Arriving(body, length);
        long[] discarded = {0};
        PendingBody pendingBody = new PendingBody(request, body, nanoTime.getAsLong());
        pending.add(pendingBody);
        body.future().onComplete(done -> pending.remove(pendingBody));
        body.future().onFailure(e -> held.release());
        doneWithBody.onComplete(done -> held.release());
        // The request keeps these handlers for as long as the call runs: they reach the body
        // only through the Arriving, which lets go of it once the body is handed on.
        request.handler(chunk -> {
            if (arriving.isDone() || held.released) {
                discard(request, discarded, chunk.length());
            } else if ((long) arriving.length() + chunk.length() > limit) {
                arriving.fail(tooLarge());
            } else if (!held.tryHold((long) arriving.length() + chunk.length() - held.bytes)) {
                arriving.fail(budget.busy());
            } else {
                arriving.append(chunk);
            }
        });
        request.exceptionHandler(arriving::fail);
        request.endHandler(v -> arriving.complete());
        return body.future();
    }

    /** The bytes of one body so far, and the promise of all of them; both let go of once it is settled. */
    private static final class Arriving {
        private Promise<Buffer> body;
        private Buffer received;
        private final long declared;

        Arriving(Promise<Buffer> body, long declared) {
            this.body = body;
            this.declared = declared;
        }

        /** Settled, here or by the sweep of late bodies. */
        boolean isDone() {
            if (body != null && body.future().isComplete()) {
                body = null;
                received = null;
            }
            return body == null;
        }

        int length() {
            return received == null ? 0 : received.length();
        }

        void append(Buffer chunk) {
            if (received == null) {
                // Sized once the first bytes arrive, not on the declared length alone; the
                // budget already holds that length, so growing by copies would only cost more.
                received = Buffer.buffer(declared < 0 ? Math.max(1024, chunk.length()) : (int) declared);
            }
            received.appendBuffer(chunk);
        }

        void complete() {
            if (body != null) {
                Promise<Buffer> settled = body;
                Buffer whole = received == null ? Buffer.buffer(0) : received;
                body = null;
                received = null;
                settled.tryComplete(whole);
            }
        }

        void fail(Throwable cause) {
            if (body != null) {
                Promise<Buffer> settled = body;
                body = null;
                received = null;
                settled.tryFail(cause);
            }
        }
    }

    /** One body's share of the budget; touched on its request's event loop only. */
    private final class HeldBytes {
        long bytes;
        /** Once released, nothing more is held for this body. */
        boolean released;

        /** Holds {@code more} bytes (none when not positive); false when the budget has no room or all was released. */
        boolean tryHold(long more) {
            if (released) {
                return false;
            }
            if (more <= 0) {
                return true;
            }
            if (!budget.tryHold(more)) {
                return false;
            }
            bytes += more;
            return true;
        }

        void release() {
            if (!released) {
                released = true;
                budget.release(bytes);
                bytes = 0;
            }
        }
    }

    private Future<Buffer> refuse(HttpServerRequest request, ApiError error) {
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            // The client has not sent the body and will not: the connection can go.
            request.response().putHeader("Connection", "close");
        } else {
            long[] discarded = {0};
            request.handler(chunk -> discard(request, discarded, chunk.length()));
        }
        return Future.failedFuture(error);
    }

    private static void discard(HttpServerRequest request, long[] discarded, int bytes) {
        discarded[0] += bytes;
        if (discarded[0] > DISCARD_CAP) {
            request.connection().close();
        }
    }

    private ApiError tooLarge() {
        String setting = limitedByBudget
                ? "the most request body bytes the gateway may buffer: general_settings.max_buffered_request_mb, "
                        + "else an eighth of the heap"
                : "general_settings.max_request_size_mb";
        return new ApiError(413, "invalid_request_error",
                "Request body is larger than the limit of " + limit + " bytes (" + setting + ").", null, "request_too_large");
    }
}
