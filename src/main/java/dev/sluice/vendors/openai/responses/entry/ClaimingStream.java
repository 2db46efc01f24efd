package dev.sluice.vendors.openai.responses.entry;

import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.entry.WatchedStreamEncoding;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * A stream from a deployment's own Responses API, relayed as it came ({@code relayed}), whose
 * response id is claimed for the caller as soon as an event names it
 * ({@code response.created}, the first): a follow-up from another key naming it is refused.
 * The events are read only until the id is found, and in at most the first
 * {@link #PIECES_LOOKED_AT} pieces of the stream.
 */
final class ClaimingStream extends WatchedStreamEncoding {
    /** Pieces of the stream looked at for the id before giving up: the vendor names it in its first event. */
    static final int PIECES_LOOKED_AT = 8;

    private final ResponseKeeper keeper;
    private int pieces;
    private boolean found;

    ClaimingStream(StreamEncoding relayed, ResponseKeeper keeper) {
        super(relayed);
        this.keeper = keeper;
    }

    /** Looks for the response's id in the first pieces, until found. */
    @Override
    protected Buffer seen(Buffer events) {
        if (!found && pieces < PIECES_LOOKED_AT && events.length() > 0) {
            pieces++;
            VendorResponseIds.ofEvents(events).ifPresent(id -> {
                found = true;
                keeper.claim(id);
            });
        }
        return events;
    }

    @Override
    public Future<Void> settled() {
        return keeper.kept();
    }
}
