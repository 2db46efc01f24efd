package dev.sluice.http;

import dev.sluice.wire.ApiError;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Reads a request body within its {@link BodyLimits}. An oversized body is refused with a 413
 * the client can read: when the client waits for {@code 100 Continue} it is answered at once
 * and never sends the body; otherwise the rest of the body is read and thrown away (up to a
 * cap) so the client is not reset while still writing.
 *
 * <p>Bytes are held against the {@link BodyBudget} as they arrive, never on what a
 * {@code Content-Length} declares: a client that declares megabytes and sends nothing holds
 * nothing, and is cut once it has sent nothing for the idle timeout. A body whose bytes do
 * not fit beside those held now makes the bodies behind it give way, and is refused with a 503
 * and {@code Retry-After} when none is behind it ({@link BodyBudget}); one larger
 * than the whole budget could never fit, and is a 413. The chunks are kept as they arrived,
 * joined without a copy, so what is held is what the heap holds.
 */
public final class RequestBodyReader {
    /**
     * Past this many discarded bytes the connection is closed instead. Reading and dropping
     * costs no memory, and closing while the client still writes would reset the connection
     * before it reads the refusal.
     */
    private static final long DISCARD_CAP = 1L << 30;
    /** A buffer holds at most this much; larger configured limits are cut to it. */
    private static final long LARGEST_BODY = Integer.MAX_VALUE - 1024;
    /** How long a client may take to send its whole body. */
    static final long BODY_TIMEOUT_MS = 60_000;
    /** What a declared body must find room for in the budget before {@code 100 Continue} invites it. */
    private static final long FIRST_SHARE = 64 * 1024;
    /** What the heap holds for each chunk kept besides its bytes: its buffer and its place in the join. */
    static final long CHUNK_OVERHEAD = 96;

    /** A body still arriving, and since when. */
    private record PendingBody(HttpServerRequest request, Arriving arriving, long startedNanos) {}

    private final BodyLimits limits;
    private final long limit;
    /** Whether the limit is the whole body budget, smaller than max_request_size_mb: a body past it could never fit. */
    private final boolean limitedByBudget;
    private final BodyBudget budget;
    private final long idleTimeoutNanos;
    private final LongSupplier nanoTime;
    /** Bodies still arriving, oldest first; one sweep a second fails the late and the silent ones. */
    private final Set<PendingBody> pending = new LinkedHashSet<>();

    /** Must be created on the event loop whose requests it reads. */
    public RequestBodyReader(Vertx vertx, BodyLimits limits, LongSupplier nanoTime) {
        this.limits = limits;
        this.budget = limits.budget();
        this.limit = Math.min(Math.min(limits.maxBytes(), LARGEST_BODY), budget.limit());
        this.limitedByBudget = budget.limit() < Math.min(limits.maxBytes(), LARGEST_BODY);
        this.idleTimeoutNanos = limits.idleTimeout().toNanos();
        this.nanoTime = nanoTime;
        // One periodic sweep per event loop rather than a timer per request: a timer
        // created and cancelled for every call is measurable on the hot path.
        vertx.setPeriodic(1000, id -> failLateBodies());
    }

    /** What this reader reads within. */
    public BodyLimits limits() {
        return limits;
    }

    private void failLateBodies() {
        long now = nanoTime.getAsLong();
        long deadline = now - TimeUnit.MILLISECONDS.toNanos(BODY_TIMEOUT_MS);
        for (Iterator<PendingBody> it = pending.iterator(); it.hasNext(); ) {
            PendingBody late = it.next();
            ApiError timedOut;
            if (late.startedNanos() <= deadline) {
                timedOut = new ApiError(408, "timeout_error", "The request body did not arrive within "
                        + BODY_TIMEOUT_MS / 1000 + " s.", null, "request_timeout");
            } else if (now - late.arriving().lastByteNanos >= idleTimeoutNanos) {
                timedOut = new ApiError(408, "timeout_error", "No byte of the request body arrived for "
                        + TimeUnit.NANOSECONDS.toSeconds(idleTimeoutNanos) + " s (general_settings.request_body_timeout_seconds).",
                        null, "request_timeout");
            } else {
                continue;
            }
            it.remove();
            if (!late.arriving().isDone()) {
                // Said before the failure is answered: answering it writes the head at once.
                if (!late.request().response().headWritten()) {
                    late.request().response().putHeader("Connection", "close");
                }
                late.arriving().fail(timedOut);
            }
        }
    }

    /**
     * Reads the body, holding its bytes against the {@link BodyBudget} as they arrive until
     * {@code doneWithBody} completes (or at once when the read fails).
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
        if (length > 0 && !budget.hasRoom(Math.min(length, FIRST_SHARE))) {
            return refuse(request, budget.busy());
        }
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            request.response().writeContinue();
        }
        Promise<Buffer> body = Promise.promise();
        Arriving arriving = new Arriving(body, nanoTime.getAsLong());
        // A body that gives way is told on whichever event loop made it: its own fails it.
        Context context = Vertx.currentContext();
        BodyClaim held = budget.claim(context == null ? () -> arriving.fail(budget.busy())
                : () -> context.runOnContext(v -> arriving.fail(budget.busy())));
        long[] discarded = {0};
        PendingBody pendingBody = new PendingBody(request, arriving, arriving.lastByteNanos);
        pending.add(pendingBody);
        body.future().onComplete(done -> pending.remove(pendingBody));
        body.future().onFailure(e -> held.release());
        doneWithBody.onComplete(done -> held.release());
        // The request keeps these handlers for as long as the call runs: they reach the body
        // only through the Arriving, which lets go of it once the body is handed on.
        request.handler(chunk -> {
            if (arriving.isDone() || held.isReleased()) {
                discard(request, discarded, chunk.length());
            } else if ((long) arriving.length + chunk.length() > limit) {
                arriving.fail(tooLarge());
            } else if (!budget.hold(held, chunk.length() + CHUNK_OVERHEAD)) {
                // Alone past the whole budget, the body could never fit; else bodies further along hold the room for now.
                arriving.fail(held.held() + chunk.length() + CHUNK_OVERHEAD > budget.limit() ? tooLarge() : budget.busy());
            } else {
                arriving.append(chunk, nanoTime.getAsLong());
            }
        });
        request.exceptionHandler(arriving::fail);
        // Marked as arrived before it is handed on, so it can no longer give way while in use.
        request.endHandler(v -> {
            if (held.arrived()) {
                arriving.complete();
            } else {
                arriving.fail(budget.busy()); // it gave way: the chunks after that were not kept
            }
        });
        return body.future();
    }

    /** The chunks of one body so far, and the promise of all of them; both let go of once it is settled. */
    private static final class Arriving {
        private Promise<Buffer> body;
        /** The only chunk so far; null once a second one arrived (then they are joined) or the body settled. */
        private Buffer first;
        private CompositeByteBuf joined;
        int length;
        long lastByteNanos;

        Arriving(Promise<Buffer> body, long startedNanos) {
            this.body = body;
            this.lastByteNanos = startedNanos;
        }

        /** Settled, here or by the sweep of late bodies. */
        boolean isDone() {
            if (body != null && body.future().isComplete()) {
                forget();
            }
            return body == null;
        }

        void append(Buffer chunk, long nowNanos) {
            lastByteNanos = nowNanos;
            length += chunk.length();
            if (joined == null && first == null) {
                first = chunk; // most bodies arrive whole, in one chunk, and are handed on as they came
                return;
            }
            if (joined == null) {
                joined = Unpooled.compositeBuffer(Integer.MAX_VALUE);
                joined.addComponent(true, ((BufferInternal) first).getByteBuf());
                first = null;
            }
            joined.addComponent(true, ((BufferInternal) chunk).getByteBuf());
        }

        void complete() {
            if (body != null) {
                Promise<Buffer> settled = body;
                Buffer whole = joined != null ? BufferInternal.buffer(joined) : first != null ? first : Buffer.buffer(0);
                forget();
                settled.tryComplete(whole);
            }
        }

        boolean fail(Throwable cause) {
            if (body == null) {
                return false;
            }
            Promise<Buffer> settled = body;
            forget();
            return settled.tryFail(cause);
        }

        private void forget() {
            body = null;
            first = null;
            joined = null;
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

    private void discard(HttpServerRequest request, long[] discarded, int bytes) {
        discarded[0] += bytes;
        if (discarded[0] > DISCARD_CAP) {
            request.connection().close();
        }
    }

    private ApiError tooLarge() {
        String setting = limitedByBudget
                ? "the most request body bytes the gateway may buffer: general_settings.max_buffered_request_mb, "
                        + "else an eighth of the heap"
                : limits.maxBytesSource();
        return new ApiError(413, "invalid_request_error",
                "Request body is larger than the limit of " + limit + " bytes (" + setting + ").", null, "request_too_large");
    }
}
