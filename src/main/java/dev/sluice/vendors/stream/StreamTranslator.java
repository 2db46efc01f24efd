package dev.sluice.vendors.stream;

import dev.sluice.model.Usage;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/**
 * Turns one upstream stream's bytes into whole OpenAI server-sent events, as they arrive. For
 * an OpenAI-speaking upstream that is cutting the bytes at event boundaries; for another
 * vendor it is reading the vendor's frames, decoding its events and writing them as
 * chat-completion chunks. What comes out is what the caller gets, and what the gateway's
 * end-mark, usage and guardrail checks read. One per stream; used on its event loop.
 *
 * <p>A vendor's error event (Anthropic's {@code event: error}, Bedrock's exception frames)
 * is thrown as a {@link StreamFailure}, classified like an error answer: before anything
 * reached the caller the attempt failed and the router may retry or fail over, after it the
 * caller's stream ends with the {@code stream_interrupted} error event.
 */
public interface StreamTranslator {

    /**
     * Adds {@code chunk} and returns every whole event now ready for the caller, in order:
     * possibly several, possibly none (an empty buffer).
     *
     * @throws StreamFailure when the upstream sent an error event or something unreadable
     */
    Buffer feed(Buffer chunk);

    /**
     * The upstream ended its body cleanly: what is left for the caller. A translated stream
     * ends with {@code data: [DONE]} only when the vendor said its answer was over, so a
     * stream cut short is still seen as cut.
     *
     * @throws StreamFailure when what was left is an error event or unreadable
     */
    Buffer end();

    /**
     * The tokens the vendor reported for this stream, when it reports them whether or not the
     * caller asked for a usage chunk; empty when they are to be read from the events.
     */
    default Optional<Usage> usage() {
        return Optional.empty();
    }

    /** The caller's events as the upstream wrote them, cut at event boundaries. */
    static StreamTranslator openAi() {
        return new SsePassthrough();
    }
}
