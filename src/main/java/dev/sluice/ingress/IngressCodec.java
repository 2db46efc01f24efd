package dev.sluice.ingress;

import dev.sluice.llm.Dialect;
import dev.sluice.llm.ModelRequest;
import dev.sluice.llm.Operation;
import io.vertx.core.buffer.Buffer;

/**
 * One entry API of the gateway: decodes what its callers send into a {@link ModelRequest}.
 * A new entry API is a new codec beside this one; the model-call path and the router are
 * the same for all of them.
 */
public interface IngressCodec {

    /** The route's name in metrics and traces, e.g. {@code chat_completions}. */
    String name();

    Operation operation();

    /** The format callers write bodies in, and read answers and stream events in. */
    Dialect dialect();

    /**
     * Decodes a caller's body. A body that cannot be routed is refused with an
     * {@link dev.sluice.api.ApiError} of status 400 naming the field and what was expected.
     */
    ModelRequest decode(Buffer body);
}
