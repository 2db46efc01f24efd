package dev.sluice.vendors.gemini.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.failure.Failure;
import dev.sluice.vendors.Provider;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Instant;

/**
 * An adapter for an API of Google's (Google AI Studio, Vertex AI), whose non-2xx answers are
 * all {@link GoogleErrors}: classified and rewritten the same way whichever host sent them.
 */
public interface GoogleApiProvider extends Provider {

    @Override
    default Failure classify(int status, Buffer body, MultiMap headers, Instant now) {
        return GoogleErrors.classify(status, body, headers, now);
    }

    @Override
    default ObjectNode normaliseError(int status, Buffer body) {
        return GoogleErrors.normalise(status, body);
    }
}
