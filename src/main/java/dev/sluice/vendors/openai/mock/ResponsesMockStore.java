package dev.sluice.vendors.openai.mock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vendors.mock.MockLedger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The responses a Responses API mock created, by id, so that a later call naming one as
 * {@code previous_response_id} continues its conversation. What is kept of a response is
 * its conversation: the input items it read (its own previous response's first) and its
 * output item. Instructions are not kept, as OpenAI does not carry them over. Only the
 * newest {@value MockLedger#KEPT} are kept; calls may come from any event loop.
 */
public final class ResponsesMockStore {

    private final Map<String, List<JsonNode>> conversations = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<JsonNode>> eldest) {
            return size() > MockLedger.KEPT;
        }
    };

    void remember(String responseId, List<JsonNode> conversation) {
        List<JsonNode> kept = List.copyOf(conversation);
        synchronized (conversations) {
            conversations.put(responseId, kept);
        }
    }

    /** The conversation up to and including response {@code responseId}'s output; empty when it was never stored. */
    public Optional<List<JsonNode>> conversation(String responseId) {
        synchronized (conversations) {
            return Optional.ofNullable(conversations.get(responseId));
        }
    }
}
