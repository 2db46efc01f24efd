package dev.sluice.vendors.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.openai.entry.OpenAiStreamEncoding;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * Writes one stream's events the way its caller reads them. The gateway reads every stream
 * as OpenAI's chat-completion chunks (for its end, usage and guardrails); each piece of it is
 * handed here both as the upstream sent it and as those chunks, and this returns what the
 * caller is sent. One per stream; used on its event loop.
 */
public interface StreamEncoding {

    /**
     * The caller's events for one piece of the stream.
     *
     * @param upstream     the bytes the deployment sent
     * @param openAiEvents the whole OpenAI events they completed, possibly none
     */
    Buffer feed(Buffer upstream, Buffer openAiEvents);

    /**
     * The caller's last events once the upstream ended cleanly.
     *
     * @param openAiEvents the whole OpenAI events still left, possibly none
     */
    Buffer end(Buffer openAiEvents);

    /**
     * The event that ends a stream broken off after it began, in the caller's dialect.
     *
     * @param openAiError the error as OpenAI's error body ({@code {"error": {...}}})
     */
    Buffer error(ObjectNode openAiError);

    /**
     * The event written when the stream has been silent for a while, so that the caller knows
     * it is alive (Anthropic's {@code ping}); empty for an entry API that has none, or when the
     * vendor's own events, keep-alives included, are relayed.
     */
    default Buffer keepAlive() {
        return Buffer.buffer();
    }

    /**
     * Whether the caller reads the vendor's own events, so that a vendor's error event after
     * the stream began reaches it as the vendor wrote it rather than as {@link #error}.
     */
    default boolean relaysVendorErrors() {
        return false;
    }

    /**
     * Completes once what this encoding keeps of the stream's answer is kept (or could not
     * be): the stream's last bytes wait for it. Always complete for an encoding that keeps nothing.
     */
    default Future<Void> settled() {
        return Future.succeededFuture();
    }

    /** Events as OpenAI's chunks: the gateway's own reading of the stream, unchanged. */
    static StreamEncoding openAi() {
        return OpenAiStreamEncoding.INSTANCE;
    }
}
