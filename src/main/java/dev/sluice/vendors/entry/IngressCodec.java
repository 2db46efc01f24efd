package dev.sluice.vendors.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.openai.entry.OpenAiAnswerEncoding;
import dev.sluice.wire.JsonLimits;
import dev.sluice.wire.JsonReading;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * One entry API of the gateway: decodes what its callers send into a {@link ModelRequest}, and
 * writes answers, streams and errors the way they read them.
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
     * Decodes a caller's body, parsing its JSON within {@code json}'s limits. A body that
     * cannot be routed is refused with an {@link dev.sluice.wire.ApiError} of status 400 naming
     * the field and what was expected.
     */
    ModelRequest decode(Buffer body, JsonReading json);

    /** {@link #decode(Buffer, JsonReading)} within the default {@link JsonLimits}. */
    default ModelRequest decode(Buffer body) {
        return decode(body, new JsonReading(JsonLimits.DEFAULTS));
    }

    /**
     * Decodes a caller's body sent with {@code contentType} (null when the caller sent none):
     * by default as {@link #decode(Buffer, JsonReading)}, which reads JSON whatever the header
     * says. An entry API that takes multipart forms reads the form's boundary from it.
     */
    default ModelRequest decode(Buffer body, String contentType, JsonReading json) {
        return decode(body, json);
    }

    /**
     * An error the gateway wrote in OpenAI's shape, as this entry API's callers read errors:
     * by default as it is.
     *
     * @param status      the error's status
     * @param openAiError the body, {@code {"error": {"message", "type", "param", "code"}}}
     */
    default WrittenError error(int status, ObjectNode openAiError) {
        return new WrittenError(status, openAiError);
    }

    /**
     * Completes a decoded call with what the entry API keeps between calls, once the caller is
     * known: the earlier turns a Responses call names by {@code previous_response_id}, say. By
     * default the call as decoded.
     */
    default Future<ModelRequest> prepare(ModelRequest decoded, Caller caller) {
        return Future.succeededFuture(decoded);
    }

    /** What writes the answer to {@code request} for {@code caller}: by default OpenAI's answer as it is. */
    default AnswerEncoding answers(ModelRequest request, Caller caller) {
        return OpenAiAnswerEncoding.INSTANCE;
    }
}
