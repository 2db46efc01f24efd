package dev.sluice.call;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.UpstreamFailure;
import dev.sluice.router.Deadline;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.vendors.upstream.UpstreamExchange;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Relays an upstream's server-sent events to the caller event by event, as they arrive:
 * nothing is buffered beyond the event being received. The wait for each chunk is bounded
 * by the stream timeout. Back-pressure runs end to end: a slow caller pauses the upstream
 * read.
 *
 * <p>Nothing reaches the caller before the first whole event (or the end of an empty
 * stream): until then the attempt can still fail like any other, and the router may try
 * another deployment. That moment is the commit ({@link #committed()}); the caller's status
 * and headers are set then, by the {@code beforeHead} hook. After it, an upstream that breaks
 * off or stalls gives the caller a final {@code data: {"error": ...}} event and no
 * {@code [DONE]}, so it cannot mistake a cut stream for a complete one.
 *
 * <p>Events decoded from one upstream read are written to the caller together, at the end of
 * that event-loop turn: the caller gets them at the same moment it would have anyway, in one
 * socket write instead of one per event.
 */
final class StreamRelay {
    private final HttpServerResponse client;
    private final UpstreamExchange upstream;
    private final Duration chunkTimeout;
    private final String source;
    private final Hooks hooks;
    private final StreamTally tally;
    static final String NO_END_MARK = "the upstream ended the stream without data: [DONE] or a finish_reason";
    private final LongSupplier nanoTime;
    private final long commitByNanos;
    private final String stallReason;
    private final StreamTranslator translator;
    private final StreamEncoding encoding;
    private final StreamEndMark endMark = new StreamEndMark();
    private final Promise<Void> committed = Promise.promise();
    private final Promise<StreamOutcome> outcome = Promise.promise();
    private int events;
    /** Whole events received in this event-loop turn and not yet written; null when none. */
    private Buffer pending;
    private boolean flushScheduled;
    private final StreamKeepAlive keepAlive;

    /** How a relayed stream ended. */
    enum StreamOutcome { COMPLETED, UPSTREAM_FAILED, CLIENT_GONE, CUT }

    /** What broke a stream already relayed to the caller; null unless it broke after its first event. */
    private volatile UpstreamFailure cutBy;

    /** What broke this stream after its first event went to the caller, if that is how it ended. */
    java.util.Optional<UpstreamFailure> cutBy() {
        return java.util.Optional.ofNullable(cutBy);
    }

    /**
     * The relay's deadlines.
     *
     * @param deadline the attempt's: the longest wait for the next chunk, the keep-alive
     *                 interval, and what was left of the request's total as it started
     * @param opened   the {@code nanoTime} the upstream call was opened at: the first event
     *                 must come within what was left of the total from then, partial chunks
     *                 or not
     */
    record Timing(Deadline.Attempt deadline, long opened, LongSupplier nanoTime) {
        /** The latest {@code nanoTime} by which the first event must have come. */
        long commitBy() {
            return deadline.firstEventBy(opened);
        }
    }

    /**
     * How the stream's events are read.
     *
     * @param translator turns the upstream's bytes into the caller's OpenAI events
     * @param tally      watches those events for the stream's usage
     * @param encoding   writes them (or the upstream's own bytes) as the caller's entry API reads them
     */
    record Events(StreamTranslator translator, StreamTally tally, StreamEncoding encoding) {}

    /** What the call does at the relay's two moments. */
    interface Hooks {
        /** Sets the caller's headers, the upstream's relayed ones included; run once, just before the head is written. */
        void beforeHead();

        /**
         * Run once before the caller's response ends after the commit (the stream completed or
         * broke off), with what it used, to set trailers.
         */
        void beforeEnd(StreamTally tally);
    }

    /**
     * @param source names the deployment and group in error events, e.g.
     *               {@code deployment 'a1' of model group 'gpt-4o'}
     * @param events what turns the upstream's bytes into the caller's events, and what watches
     *               them for the stream's usage
     */
    StreamRelay(HttpServerResponse client, UpstreamExchange upstream, String source, Timing timing, Hooks hooks,
            Events events) {
        this.client = client;
        this.upstream = upstream;
        this.translator = events.translator();
        this.encoding = events.encoding();
        StreamTally tally = events.tally();
        this.chunkTimeout = timing.deadline().betweenChunks();
        this.source = source;
        this.hooks = hooks;
        this.tally = tally;
        this.nanoTime = timing.nanoTime();
        this.commitByNanos = timing.commitBy();
        this.stallReason = "no stream chunk within " + chunkTimeout.toMillis() + " ms (stream_timeout)";
        this.keepAlive = new StreamKeepAlive(client, encoding.keepAlive(), timing.deadline().keepAlive().toNanos(), nanoTime);
    }

    /**
     * Starts relaying. The returned future completes at the commit, or fails with an
     * {@link UpstreamFailure} if the upstream broke off or stalled before its first event, in
     * which case the caller has been sent nothing. {@link #finished()} then tells how the
     * stream ended.
     */
    Future<Void> start() {
        HttpClientResponse stream = upstream.stream();
        armChunkDeadline();
        stream.handler(chunk -> {
            if (outcome.future().isComplete()) {
                return;
            }
            armChunkDeadline();
            Buffer whole;
            Buffer forCaller;
            try {
                whole = translator.feed(chunk);
                forCaller = encoding.feed(chunk, whole);
            } catch (StreamFailure failure) {
                vendorFailed(failure, chunk);
                return;
            } catch (IllegalArgumentException untranslatable) {
                vendorFailed(untranslatable(untranslatable), Buffer.buffer());
                return;
            }
            if (whole.length() > 0 || forCaller.length() > 0) {
                events++;
                tally.saw(whole);
                endMark.saw(whole);
                hold(forCaller);
                scheduleFlush(stream);
            }
        });
        stream.endHandler(v -> {
            upstream.finish();
            if (outcome.future().isComplete()) {
                return;
            }
            Buffer remainder;
            Buffer forCaller;
            try {
                remainder = translator.end();
                forCaller = encoding.end(remainder);
            } catch (StreamFailure failure) {
                vendorFailed(failure, Buffer.buffer());
                return;
            } catch (IllegalArgumentException untranslatable) {
                vendorFailed(untranslatable(untranslatable), Buffer.buffer());
                return;
            }
            translator.usage().ifPresent(tally::reported);
            tally.saw(remainder);
            endMark.saw(remainder);
            hold(forCaller);
            if (pending == null && !committed.future().isComplete()) {
                // A 200 stream with nothing in it is no answer: the attempt failed, and nothing was sent yet.
                committed.tryFail(new UpstreamFailure(UpstreamFailure.Kind.BROKEN, "the stream ended before its first event"));
                outcome.tryComplete(StreamOutcome.UPSTREAM_FAILED);
                return;
            }
            if (!endMark.seen()) {
                // A body that ends without [DONE] or a finish_reason was cut short, however cleanly it
                // ended: the caller is told, as for a dropped connection, rather than given half an answer.
                brokeOff(new UpstreamFailure(UpstreamFailure.Kind.BROKEN, NO_END_MARK));
                return;
            }
            commit();
            Buffer last = takePending();
            // What the entry API keeps of the answer (a response a later call continues) is kept before the caller has it all.
            encoding.settled().onComplete(kept -> {
                if (outcome.future().isComplete()) {
                    return; // the caller left, or the gateway cut the stream, meanwhile
                }
                hooks.beforeEnd(tally);
                client.end(last);
                outcome.tryComplete(StreamOutcome.COMPLETED);
            });
        });
        stream.exceptionHandler(t -> {
            if (!outcome.future().isComplete()) {
                brokeOff(upstream.failure(t));
            }
        });
        return committed.future();
    }

    /**
     * The vendor ended the stream with an error event: before the commit the attempt failed
     * with the vendor's classified failure (and may be retried or failed over); after it the
     * caller's stream ends with the error event, as for a stream broken off.
     */
    private void vendorFailed(StreamFailure failure, Buffer chunk) {
        translator.usage().ifPresent(tally::reported);
        if (!committed.future().isComplete() && (events == 0 || client.closed())) {
            committed.tryFail(failure);
            outcome.tryComplete(StreamOutcome.UPSTREAM_FAILED);
        } else if (encoding.relaysVendorErrors() && !client.closed()) {
            // The caller reads the vendor's own stream: its own error event ends it, in its own words.
            commit();
            hold(encoding.feed(chunk, Buffer.buffer()));
            hold(encoding.end(Buffer.buffer()));
            hooks.beforeEnd(tally);
            client.end(takePending());
            cutBy = new UpstreamFailure(UpstreamFailure.Kind.BROKEN, "the upstream sent an error: " + failure.getMessage());
            outcome.tryComplete(StreamOutcome.UPSTREAM_FAILED);
        } else {
            brokeOff(new UpstreamFailure(UpstreamFailure.Kind.BROKEN, "the upstream sent an error: " + failure.getMessage()));
        }
        upstream.cancel(); // after the outcome is settled: the reset it causes is then not a second failure
    }

    /**
     * The upstream broke off: before the commit with nothing to relay, the attempt failed;
     * else the caller gets what came and then an error event, and no {@code [DONE]}.
     */
    private void brokeOff(UpstreamFailure failure) {
        if (!committed.future().isComplete()) {
            if (events > 0 && !client.closed()) {
                // Whole events arrived in this same turn: they are the caller's, with the error after them.
                commit();
            } else {
                committed.tryFail(failure);
                outcome.tryComplete(StreamOutcome.UPSTREAM_FAILED);
                return;
            }
        }
        if (client.closed()) {
            outcome.tryComplete(StreamOutcome.CLIENT_GONE);
            return;
        }
        Buffer last = takePending().appendBuffer(errorEvent(failure));
        hooks.beforeEnd(tally);
        client.end(last);
        cutBy = failure;
        outcome.tryComplete(StreamOutcome.UPSTREAM_FAILED);
    }

    /** What the caller's entry API could not carry fails the stream as a vendor's error event would. */
    private static StreamFailure untranslatable(IllegalArgumentException cause) {
        return new StreamFailure(Failure.of(FailureClass.SERVER,
                "streamed what the caller's API cannot carry: " + cause.getMessage()));
    }

    /** Completes when the stream has ended one way or another, after the commit. */
    Future<StreamOutcome> finished() {
        return outcome.future();
    }

    /** What the events relayed so far used. */
    StreamTally tally() {
        return tally;
    }

    /** The caller hung up: stop the upstream at once. */
    void clientGone() {
        if (outcome.tryComplete(StreamOutcome.CLIENT_GONE)) {
            committed.tryFail(new UpstreamFailure(UpstreamFailure.Kind.BROKEN, "the caller left"));
            upstream.cancel();
        }
    }

    /**
     * The gateway is stopping and its drain deadline ran out: before the commit the attempt
     * ends with nothing sent (the call is answered 503); after it, the caller gets what came
     * and then the {@code stream_interrupted} error event, and no {@code [DONE]}.
     */
    void cut() {
        if (outcome.future().isComplete()) {
            return;
        }
        if (!committed.future().isComplete()) {
            outcome.tryComplete(StreamOutcome.CUT);
            committed.tryFail(new UpstreamFailure(UpstreamFailure.Kind.BROKEN, "the gateway is shutting down"));
            upstream.cancel();
            return;
        }
        outcome.tryComplete(StreamOutcome.CUT);
        upstream.cancel();
        if (client.closed() || client.ended()) {
            return;
        }
        String message = "Sluice: the stream from " + source + " was cut after " + events
                + " event(s): the gateway shut down and its drain deadline ran out";
        Buffer last = takePending().appendBuffer(encoding.error(ErrorBodies.node(message, "server_error", null,
                "stream_interrupted")));
        hooks.beforeEnd(tally);
        client.end(last);
    }

    private void commit() {
        if (committed.future().isComplete()) {
            return;
        }
        keepAlive.start(outcome.future());
        hooks.beforeHead();
        client.setStatusCode(upstream.status())
                .setChunked(true)
                .putHeader("Content-Type", "text/event-stream")
                .putHeader("Cache-Control", "no-cache");
        committed.tryComplete();
    }

    private void hold(Buffer events) {
        if (events.length() == 0) {
            return;
        }
        if (pending == null) {
            pending = events;
        } else {
            pending = Buffer.buffer(pending.length() + events.length()).appendBuffer(pending).appendBuffer(events);
        }
    }

    private Buffer takePending() {
        Buffer held = pending == null ? Buffer.buffer() : pending;
        pending = null;
        return held;
    }

    /** Runs {@link #flush} once, after the events of the current upstream read have arrived. */
    private void scheduleFlush(HttpClientResponse stream) {
        if (!flushScheduled) {
            flushScheduled = true;
            Vertx.currentContext().runOnContext(v -> flush(stream));
        }
    }

    private void flush(HttpClientResponse stream) {
        flushScheduled = false;
        if (outcome.future().isComplete() || client.ended() || pending == null) {
            return;
        }
        commit();
        client.write(takePending());
        keepAlive.wrote();
        if (client.writeQueueFull()) {
            // The caller is the slow side: the upstream is not stalling, so its stall
            // deadline waits until the caller has caught up.
            stream.pause();
            upstream.clearDeadline();
            client.drainHandler(v -> {
                armChunkDeadline();
                stream.resume();
            });
        }
    }

    private void armChunkDeadline() {
        long millis = chunkTimeout.toMillis();
        if (!committed.future().isComplete()) {
            long left = TimeUnit.NANOSECONDS.toMillis(commitByNanos - nanoTime.getAsLong());
            if (left < millis) {
                upstream.armDeadline(Math.max(1, left), "no stream event before the request's timeout ran out");
                return;
            }
        }
        upstream.armDeadline(millis, stallReason);
    }

    private Buffer errorEvent(UpstreamFailure failure) {
        boolean timeout = failure.kind() == UpstreamFailure.Kind.TIMEOUT;
        String message = "Sluice: the stream from " + source + " broke off after " + events + " event(s): " + failure.getMessage();
        return encoding.error(ErrorBodies.node(message, timeout ? "timeout_error" : "server_error", null,
                timeout ? "stream_timeout" : "stream_interrupted"));
    }
}
