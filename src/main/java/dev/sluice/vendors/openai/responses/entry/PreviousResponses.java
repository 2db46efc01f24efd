package dev.sluice.vendors.openai.responses.entry;

import dev.sluice.accounts.Caller;
import dev.sluice.store.StoredResponse;
import dev.sluice.vendors.openai.responses.store.ResponseStore;
import dev.sluice.wire.ApiError;
import io.vertx.core.Future;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@code previous_response_id} names for its caller, and whether the caller may name it.
 *
 * <h2>Design notes</h2>
 * <p>A deployment's own Responses API (OpenAI's, Azure OpenAI's) keeps its responses under
 * the deployment's key, which every caller of the gateway shares: forwarded as sent, one
 * virtual key's id would continue another key's conversation at the vendor. So the gateway
 * records the owner of every response id it hands out ({@link StoredResponse#vendorKept}),
 * in the same store as the responses it keeps itself (shared by replicas, kept across
 * restarts, for as long as a kept response), and a virtual key may name only an id recorded
 * as its own. An id it was never handed, another key's, one expired or never recorded (the
 * store was down when it was answered) is 404 {@code previous_response_not_found}, as the
 * vendor says of an id it does not know; nothing goes upstream. When the store cannot answer,
 * whose the id is cannot be told, so a virtual key's call is refused, 503
 * {@code store_unavailable}: fail closed.
 *
 * <p>The master key may name any id (a response kept here, whoever made it, carries its
 * turns), and a gateway without keys has no other key to keep out: for them an id the store
 * does not hold is forwarded as before, and a store that cannot answer leaves the id to a
 * deployment that may know it.
 */
final class PreviousResponses {
    private static final Logger log = LoggerFactory.getLogger(PreviousResponses.class);

    private final ResponseStore store;

    PreviousResponses(ResponseStore store) {
        this.store = store;
    }

    /**
     * The response kept here that {@code id} continues, with its turns; empty when the call
     * goes on with {@code id} as it is, to a deployment whose own Responses API keeps it.
     *
     * @return fails with an {@link ApiError} when the caller may not name {@code id}
     */
    Future<Optional<StoredResponse>> find(String id, Caller caller) {
        boolean checked = caller instanceof Caller.Keyed;
        Future<Optional<StoredResponse>> held = caller.isAdmin() ? store.findAny(id) : store.find(id, ResponseOwners.of(caller));
        return held.transform(found -> {
            if (found.failed()) {
                if (checked) {
                    log.warn("responses.owner_unreadable id={} cause={}", id, found.cause().getMessage());
                    return Future.failedFuture(storeUnavailable());
                }
                log.warn("responses.store_unreadable id={} cause={}", id, found.cause().getMessage());
                return Future.succeededFuture(Optional.empty());
            }
            Optional<StoredResponse> response = found.result();
            if (response.isEmpty()) {
                return checked ? Future.failedFuture(notFound(id)) : Future.succeededFuture(Optional.empty());
            }
            return Future.succeededFuture(response.filter(kept -> !kept.keptByVendor()));
        });
    }

    /** OpenAI's words for an id it does not know, answered 404: whose else it may be is not told. */
    static ApiError notFound(String id) {
        return new ApiError(404, "invalid_request_error", "Previous response with id '" + id + "' not found.",
                "previous_response_id", "previous_response_not_found");
    }

    private static ApiError storeUnavailable() {
        return new ApiError(503, "service_unavailable", "Sluice cannot tell now whose this previous_response_id is: the"
                + " response store is unreachable. Try again shortly.", "previous_response_id", "store_unavailable")
                .withHeaders(Map.of("Retry-After", "1"));
    }
}
