package dev.sluice.vendors.stream;

import dev.sluice.model.StreamEvent;
import java.util.List;

/**
 * Reads one vendor's stream events into the internal model. One per stream: it may remember
 * what it has seen (whether the stream started, which content block is a tool call).
 */
public interface EventDecoder {

    /**
     * The internal events one vendor event means, in order; none for an event that means
     * nothing to the caller (a ping). The first events of a stream must include
     * {@link StreamEvent.Started}.
     *
     * @throws StreamFailure when the event is the vendor's error, or cannot be read
     */
    List<StreamEvent> decode(Frame frame);
}
