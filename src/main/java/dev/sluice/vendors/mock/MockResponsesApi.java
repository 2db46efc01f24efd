package dev.sluice.vendors.mock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vendors.openai.mock.ResponsesMockCall;
import dev.sluice.vendors.openai.mock.ResponsesMockReplies;
import dev.sluice.vendors.openai.mock.ResponsesMockStore;
import dev.sluice.vendors.openai.mock.ResponsesMockStream;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * OpenAI's Responses API on the OpenAI mock: {@code POST /v1/responses} (also without
 * {@code /v1}), whole or streamed, with function calls and {@code previous_response_id}.
 * It is written from OpenAI's API reference alone, apart from the gateway's own codec, so
 * that a gateway test against it proves the codec rather than agrees with it.
 *
 * <p>A call is first checked, as OpenAI checks it: {@code input}, when given, must be a string
 * or an array of item objects ({@code invalid_type}, naming {@code input} or
 * {@code input[i]}), and a {@code previous_response_id} must name a response this mock created
 * and stored (else 400 {@code previous_response_not_found}). Then the modes apply as on chat
 * completions; {@link ResponsesMockCall} says what is answered, {@link ResponsesMockReplies}
 * and {@link ResponsesMockStream} how it is written.
 */
final class MockResponsesApi {

    private final MockErrors errors;
    private final ResponsesMockStore store = new ResponsesMockStore();
    private final ResponsesMockReplies replies;

    MockResponsesApi(Clock clock, MockErrors errors, MockReplies chat) {
        this.errors = errors;
        this.replies = new ResponsesMockReplies(chat, clock, store);
    }

    /** Why OpenAI would refuse this call before a model saw it; empty when it would not. */
    Optional<MockError> refusal(JsonNode body) {
        JsonNode input = body.path("input");
        if (input.isArray()) {
            for (int i = 0; i < input.size(); i++) {
                if (!input.get(i).isObject()) {
                    return Optional.of(errors.invalidType("input[" + i + "]", "an input item object"));
                }
            }
        } else if (!input.isMissingNode() && !input.isNull() && !input.isTextual()) {
            return Optional.of(errors.invalidType("input", "a string or an array of input items"));
        }
        JsonNode previous = body.path("previous_response_id");
        if (previous.isMissingNode() || previous.isNull()) {
            return Optional.empty();
        }
        if (!previous.isTextual()) {
            return Optional.of(errors.invalidType("previous_response_id", "a string"));
        }
        return store.conversation(previous.asText()).isPresent()
                ? Optional.empty()
                : Optional.of(errors.previousResponseNotFound(previous.asText()));
    }

    /** The answer to a call {@link #refusal} let through; it is built, and remembered, only when sent. */
    MockReply reply(JsonNode body) {
        JsonNode previous = body.path("previous_response_id");
        List<JsonNode> earlier = previous.isTextual()
                ? store.conversation(previous.asText()).orElse(List.of())
                : List.of();
        ResponsesMockCall call = ResponsesMockCall.of(body, earlier);
        return new MockReply(call.call(), call.call().stream(),
                () -> MockJson.buffer(ResponsesMockReplies.response(replies.answerTo(call), true)),
                () -> ResponsesMockStream.events(replies.answerTo(call)));
    }
}
