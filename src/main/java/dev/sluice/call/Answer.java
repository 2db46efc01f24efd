package dev.sluice.call;

import dev.sluice.accounts.spend.BilledUnits;
import dev.sluice.accounts.spend.TokenUsage;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/** What a deployment served, as the caller will get it. */
sealed interface Answer {

    /**
     * A whole body, written once routing is over: JSON, or a stream for a caller that cannot
     * take one chunked.
     *
     * @param usage the tokens it used, for its cost
     * @param units what else it used that has a price: images, seconds of audio, ...
     */
    record Whole(int status, Buffer body, String contentType, MultiMap upstreamHeaders, TokenUsage usage, BilledUnits units)
            implements Answer {
        /** An answer billed by its tokens only. */
        Whole(int status, Buffer body, String contentType, MultiMap upstreamHeaders, TokenUsage usage) {
            this(status, body, contentType, upstreamHeaders, usage, BilledUnits.NONE);
        }
    }

    /** A stream already committed to the caller and still being relayed. */
    record Streaming(StreamRelay relay) implements Answer {}
}
