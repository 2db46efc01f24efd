package dev.sluice.vendors.openai.responses.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.entry.StreamEncoding;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * A stream from a deployment's own Responses API, relayed as it came ({@code relayed}), whose
 * response id is claimed for the caller as soon as an event names it
 * ({@code response.created}, the first): a follow-up from another key naming it is refused.
 * The events are read only until the id is found, and in at most the first
 * {@link #PIECES_LOOKED_AT} pieces of the stream.
 */
final class ClaimingStream implements StreamEncoding {
    /** Pieces of the stream looked at for the id before giving up: the vendor names it in its first event. */
    static final int PIECES_LOOKED_AT = 8;

    private final StreamEncoding relayed;
    private final ResponseKeeper keeper;
    private int pieces;
    private boolean found;

    ClaimingStream(StreamEncoding relayed, ResponseKeeper keeper) {
        this.relayed = relayed;
        this.keeper = keeper;
    }

    @Override
    public Buffer feed(Buffer upstream, Buffer openAiEvents) {
        return look(relayed.feed(upstream, openAiEvents));
    }

    @Override
    public Buffer end(Buffer openAiEvents) {
        return look(relayed.end(openAiEvents));
    }

    private Buffer look(Buffer events) {
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
    public Buffer error(ObjectNode openAiError) {
        return relayed.error(openAiError);
    }

    @Override
    public Buffer keepAlive() {
        return relayed.keepAlive();
    }

    @Override
    public boolean relaysVendorErrors() {
        return relayed.relaysVendorErrors();
    }

    @Override
    public Future<Void> settled() {
        return keeper.kept();
    }
}
