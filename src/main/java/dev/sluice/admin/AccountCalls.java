package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.http.QueryParams;
import dev.sluice.http.Replies;
import dev.sluice.http.RequestBodyReader;
import dev.sluice.store.StoreException;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonFields;
import dev.sluice.wire.JsonProblems;
import dev.sluice.wire.JsonReading;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

/**
 * How every key and team API call runs, in one place:
 * authenticate → check the caller may call the route → read the JSON body → run the
 * call's store work on a worker (the repositories block) → tell {@code AccountChanges}
 * what was written → answer 200 with the work's JSON, or the error in OpenAI's shape.
 *
 * <p>A store that cannot be reached is a 503 {@code store_unavailable} naming the
 * operation and the driver's reason; a unique value taken (an alias, an id) that the work
 * did not explain itself is a 409; any other store failure is a fault, a 500.
 *
 * <p>Create one per event loop: its body reader is.
 */
final class AccountCalls {

    /** Who may call a route. Without a master key configured nobody may. */
    enum Access {
        /** The master key only. */
        MASTER_KEY,
        /** The master key, or a virtual key about itself: the work checks which key is asked about. */
        MASTER_KEY_OR_OWN_KEY
    }

    /** A call's work: validates, reads and writes the store, and returns the answer. Runs on a worker. */
    @FunctionalInterface
    interface StoreWork {
        JsonNode answer(AccountCall call);
    }

    private final Vertx vertx;
    private final AccountApi api;
    private final String managed;
    private final RequestBodyReader bodies;

    /**
     * @param managed what the routes manage, for the message when no master key is set:
     *                "keys" gives "Managing keys needs a master key: ..."
     */
    AccountCalls(Vertx vertx, AccountApi api, String managed) {
        this.vertx = vertx;
        this.api = api;
        this.managed = managed;
        this.bodies = new RequestBodyReader(vertx, api.bodies(), api.nanoTime());
    }

    void answer(HttpServerRequest request, String route, Access access, StoreWork work) {
        QueryParams query;
        try {
            query = QueryParams.of(request);
        } catch (ApiError e) {
            Replies.error(request.response(), e);
            return;
        }
        WrittenAccounts written = new WrittenAccounts();
        // Held until the caller is known, so no body byte is lost while authentication runs.
        request.pause();
        authenticate(request)
                .compose(caller -> {
                    permit(caller, route, access);
                    return body(request).map(body -> new AccountCall(caller, body, query, written));
                })
                .compose(call -> vertx.executeBlocking(() -> work.answer(call), false))
                .onComplete(done -> {
                    written.tell(api.changes());
                    if (done.succeeded()) {
                        Replies.json(request.response(), 200, Json.buffer(done.result()));
                    } else {
                        fail(request, route, done.cause());
                    }
                });
    }

    private Future<Caller> authenticate(HttpServerRequest request) {
        try {
            Future<Caller> caller = api.authenticate().apply(request);
            return caller == null ? Future.failedFuture(new IllegalStateException("authenticate returned null")) : caller;
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    private void permit(Caller caller, String route, Access access) {
        switch (caller) {
            case Caller.Open open -> throw new ApiError(403, "permission_error",
                    "Managing " + managed + " needs a master key: set general_settings.master_key.", null,
                    "master_key_required");
            case Caller.Admin admin -> { }
            case Caller.Keyed keyed -> {
                if (access == Access.MASTER_KEY) {
                    throw new ApiError(403, "permission_error", route + " needs the master key; the virtual key "
                            + keyed.label() + " may not call it.", null, "permission_error");
                }
            }
        }
    }

    private Future<ObjectNode> body(HttpServerRequest request) {
        Promise<Void> parsed = Promise.promise();
        Future<Buffer> read = bodies.read(request, parsed.future());
        request.resume();
        // Once parsed, the bytes are garbage: the JSON object is what the handler keeps.
        JsonReading json = api.bodies().reading();
        return read.map(bytes -> parse(bytes, json)).andThen(done -> parsed.tryComplete());
    }

    /** The body's JSON object; an empty one when the body holds no value. */
    private static ObjectNode parse(Buffer bytes, JsonReading json) {
        JsonNode root = json.parse(bytes).orElseGet(Json.MAPPER::createObjectNode);
        if (!(root instanceof ObjectNode body)) {
            throw ApiError.invalidRequest("The body must be a JSON object, but got " + JsonFields.shown(root) + ".", null,
                    "invalid_type");
        }
        JsonProblems.nulAt(body).ifPresent(path -> {
            throw ApiError.invalidRequest("Invalid '" + path + "': it contains a NUL character, which no name, id or key may hold.",
                    path, "invalid_value");
        });
        return body;
    }

    private void fail(HttpServerRequest request, String route, Throwable failure) {
        if (!request.isEnded()) {
            // Refused before the body was read: let the rest arrive and be dropped.
            request.resume();
        }
        switch (failure) {
            case ApiError error -> Replies.error(request.response(), error);
            case StoreException e when e.reason() == StoreException.Reason.UNAVAILABLE ->
                    Replies.error(request.response(), new ApiError(503, "server_error",
                            "The key store cannot be reached (" + e.getMessage() + "); try again.", null, "store_unavailable"));
            case StoreException e when e.reason() == StoreException.Reason.CONFLICT ->
                    Replies.error(request.response(), new ApiError(409, "invalid_request_error",
                            "The change conflicts with what is stored: " + e.getMessage() + ".", null, "conflict"));
            default -> Replies.internalError(request.response(), route, failure);
        }
    }
}
