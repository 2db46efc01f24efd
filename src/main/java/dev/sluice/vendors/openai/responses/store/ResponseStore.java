package dev.sluice.vendors.openai.responses.store;

import dev.sluice.store.StoredResponse;
import io.vertx.core.Future;
import java.util.Optional;

/**
 * Where responses answered through the Responses API are kept, so that a call naming one in
 * {@code previous_response_id} carries its turns and {@code GET}/{@code DELETE
 * /v1/responses/{id}} find it. {@link MemoryResponses} keeps them in the gateway's heap when
 * there is no store; {@link DatabaseResponses} keeps them in the store, shared by replicas.
 *
 * <p>Nothing here blocks: called on an event loop, each future completes on the caller's
 * context. A response is found and deleted only by the owner it was saved with, and only
 * until it expires; otherwise it is as if it never was.
 */
public interface ResponseStore {

    /**
     * Keeps a response, dropping the oldest ones when the limits are reached.
     *
     * @return fails with an {@link IllegalArgumentException} when the response is beyond the
     *         store's {@link ResponseLimits} (too large, or meant to be kept too long): the
     *         caller answers without keeping it; with an {@link IllegalStateException} when
     *         its id is already taken; and, for the database, with a
     *         {@link dev.sluice.store.StoreException} when the store fails
     */
    Future<Void> save(StoredResponse response);

    /** The response with this id, when {@code owner} saved it and it has not expired. */
    Future<Optional<StoredResponse>> find(String id, String owner);

    /** The response with this id, whoever saved it, when it has not expired: what the master key may read. */
    Future<Optional<StoredResponse>> findAny(String id);

    /** Deletes the response with this id; false when {@code owner} has none by that id that has not expired. */
    Future<Boolean> delete(String id, String owner);

    /**
     * What this store keeps: a response answered at {@code createdAt} is saved with
     * {@code limits().expiresAt(createdAt)} as its expiry.
     */
    ResponseLimits limits();
}
