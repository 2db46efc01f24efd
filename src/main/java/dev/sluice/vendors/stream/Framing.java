package dev.sluice.vendors.stream;

import io.vertx.core.buffer.Buffer;
import java.util.List;

/** Cuts a vendor's stream bytes into whole {@link Frame}s. One per stream. */
public interface Framing {

    /** Adds {@code chunk}; returns the frames now whole, in order. A partial frame is kept. */
    List<Frame> feed(Buffer chunk);

    /**
     * The upstream ended its body: the frames left, if the rest forms any.
     *
     * @throws StreamFailure when the body ended inside a frame that cannot be read
     */
    List<Frame> end();
}
