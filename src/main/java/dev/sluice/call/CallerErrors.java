package dev.sluice.call;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.http.Replies;
import dev.sluice.vendors.entry.IngressCodec;
import dev.sluice.vendors.entry.WrittenError;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import io.vertx.core.http.HttpServerResponse;

/**
 * A model call's errors, written the way its entry API's callers read them: the gateway
 * words each in OpenAI's shape, and the call's {@link IngressCodec} gives it its own.
 */
final class CallerErrors {
    private CallerErrors() {}

    static void write(HttpServerResponse response, IngressCodec codec, ApiError error) {
        if (response.headWritten()) {
            Replies.error(response, error); // too late for a body: the response is reset
            return;
        }
        error.headers().forEach(response::putHeader);
        json(response, codec, error.status(), ErrorBodies.node(error.getMessage(), error.type(), error.param(), error.code()));
    }

    /** An error whose OpenAI-shaped body is already written: an upstream's own, say. */
    static void json(HttpServerResponse response, IngressCodec codec, int status, ObjectNode openAiBody) {
        WrittenError shaped = codec.error(status, openAiBody);
        Replies.json(response, shaped.status(), Json.buffer(shaped.body()));
    }
}
