package dev.sluice.vendors.openai.responses.entry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.Caller;
import dev.sluice.http.Replies;
import dev.sluice.store.StoredResponse;
import dev.sluice.vendors.openai.responses.store.ResponseStore;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;

/**
 * {@code GET} and {@code DELETE /v1/responses/{id}}: a response this gateway kept, read or
 * deleted by the key that made it (the master key reads any). Another key, an expired response, or one made by a
 * deployment's own Responses API (kept by that vendor, not here: the gateway holds only whose
 * it is, which a delete here leaves in place) is not found: 404 in OpenAI's words.
 */
public final class StoredResponses {
    private final Authenticator authenticator;
    private final ResponseStore store;

    public StoredResponses(Authenticator authenticator, ResponseStore store) {
        this.authenticator = authenticator;
        this.store = store;
    }

    public void get(HttpServerRequest request, String id) {
        authenticator.withCaller(request, caller -> readable(id, caller).onComplete(found -> {
            if (found.failed()) {
                Replies.internalError(request.response(), "responses.get", found.cause());
            } else if (found.result().filter(kept -> !kept.keptByVendor()).isEmpty()) {
                Replies.error(request.response(), notFound(id));
            } else {
                Replies.json(request.response(), 200, Buffer.buffer(found.result().get().responseJson()));
            }
        }));
    }

    public void delete(HttpServerRequest request, String id) {
        authenticator.withCaller(request, caller -> deleteKept(id, ResponseOwners.of(caller)).onComplete(deleted -> {
            if (deleted.failed()) {
                Replies.internalError(request.response(), "responses.delete", deleted.cause());
            } else if (!deleted.result()) {
                Replies.error(request.response(), notFound(id));
            } else {
                Replies.json(request.response(), 200, Json.buffer(JsonNodeFactory.instance.objectNode().put("id", id)
                        .put("object", "response").put("deleted", true)));
            }
        }));
    }

    /** The response {@code caller} may read by this id: its own, or any for the master key. */
    private Future<Optional<StoredResponse>> readable(String id, Caller caller) {
        return caller.isAdmin() ? store.findAny(id) : store.find(id, ResponseOwners.of(caller));
    }

    /** Deletes a response kept here; the record of a vendor's response stays, as the vendor still keeps it. */
    private Future<Boolean> deleteKept(String id, String owner) {
        return store.find(id, owner).compose(found -> found.isEmpty() || found.get().keptByVendor()
                ? Future.succeededFuture(false) : store.delete(id, owner));
    }

    private static ApiError notFound(String id) {
        return new ApiError(404, "invalid_request_error", "Response with id '" + id + "' not found.", null, null);
    }
}
