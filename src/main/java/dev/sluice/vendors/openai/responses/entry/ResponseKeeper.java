package dev.sluice.vendors.openai.responses.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.store.StoredResponse;
import dev.sluice.vendors.openai.responses.ResponsesApi;
import dev.sluice.vendors.openai.responses.ResponsesRequest;
import dev.sluice.vendors.openai.responses.store.ResponseStore;
import dev.sluice.wire.Json;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one call's response, with the turns a follow-up carries, unless the caller said
 * {@code store: false}; or, for a response a deployment's own Responses API made and keeps,
 * whose it is ({@link #claim}). The answer waits until it is kept, at most {@link #MAX_WAIT}; a
 * response that cannot be kept (too large, the store down) is still answered: it is logged,
 * and a follow-up naming it is told it was not found.
 */
final class ResponseKeeper {
    private static final Logger log = LoggerFactory.getLogger(ResponseKeeper.class);
    /** The longest an answer waits for its response to be kept. */
    static final Duration MAX_WAIT = Duration.ofSeconds(2);

    private final ResponseStore store;
    private final String owner;
    private final String group;
    private final Instant createdAt;
    private Future<Void> kept = Future.succeededFuture();
    private boolean claimed;

    ResponseKeeper(ResponseStore store, String owner, String group, Instant createdAt) {
        this.store = store;
        this.owner = owner;
        this.group = group;
        this.createdAt = createdAt;
    }

    /** Starts keeping {@code response}, the answer to {@code request}. */
    void keep(ResponsesRequest request, ChatAnswer answer, ObjectNode response) {
        if (!request.store()) {
            return;
        }
        String id = response.path("id").asText();
        StoredResponse stored;
        try {
            stored = new StoredResponse(id, owner, group, createdAt, store.limits().expiresAt(createdAt),
                    new String(Json.bytes(response), StandardCharsets.UTF_8),
                    new String(Json.bytes(ResponsesApi.encodeConversation(ResponsesApi.conversationOf(request, answer))),
                            StandardCharsets.UTF_8));
        } catch (IllegalArgumentException unkeepable) {
            log.warn("responses.not_kept id={} cause={}", id, unkeepable.getMessage());
            return;
        }
        save(stored);
    }

    /**
     * Records that the vendor's response {@code id}, answered to this caller, is this caller's:
     * a follow-up naming it from another key is refused. Once per call; an id already recorded
     * stays its first owner's (the save fails, and is logged).
     */
    void claim(String id) {
        if (claimed || id == null || id.isBlank()) {
            return;
        }
        claimed = true;
        StoredResponse record;
        try {
            record = StoredResponse.vendorKept(id, owner, group, createdAt, store.limits().expiresAt(createdAt));
        } catch (IllegalArgumentException unkeepable) {
            log.warn("responses.not_claimed cause={}", unkeepable.getMessage());
            return;
        }
        save(record);
    }

    private void save(StoredResponse stored) {
        String id = stored.id();
        Promise<Void> waited = Promise.promise();
        store.save(stored).onComplete(saved -> {
            if (saved.failed()) {
                log.warn("responses.not_kept id={} cause={}", id, saved.cause().getMessage());
            }
            waited.tryComplete();
        });
        // A store that does not answer does not hold the caller's answer back for longer than this.
        Context context = Vertx.currentContext();
        if (context != null && !waited.future().isComplete()) {
            long timer = context.owner().setTimer(MAX_WAIT.toMillis(), t -> {
                if (waited.tryComplete()) {
                    log.warn("responses.keep_slow id={} waited_ms={}", id, MAX_WAIT.toMillis());
                }
            });
            waited.future().onComplete(done -> context.owner().cancelTimer(timer));
        }
        kept = waited.future();
    }

    /** Completes once the response is kept, or could not be. */
    Future<Void> kept() {
        return kept;
    }
}
