package dev.sluice.vendors.openai.responses.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.model.Dialect;
import dev.sluice.model.GatewayFields;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.store.StoredResponse;
import dev.sluice.vendors.entry.AnswerEncoding;
import dev.sluice.vendors.entry.ApproximateChat;
import dev.sluice.vendors.entry.AbstractIngressCodec;
import dev.sluice.vendors.openai.entry.OpenAiFields;
import dev.sluice.vendors.openai.responses.ResponseMeta;
import dev.sluice.vendors.openai.responses.ResponsesApi;
import dev.sluice.vendors.openai.responses.ResponsesBridge;
import dev.sluice.vendors.openai.responses.ResponsesRequest;
import dev.sluice.vendors.openai.responses.store.ResponseStore;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonReading;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * OpenAI's Responses API ({@code POST /v1/responses}). A body is decoded as the API reference
 * describes it, translated to chat completions for the gateway's rules and for deployments that
 * do not serve the Responses API, and kept whole for those that do (OpenAI's and Azure OpenAI's
 * own), which get it untranslated. A call naming a {@code previous_response_id} this gateway
 * kept carries that conversation's turns before its own input, whichever deployment answers.
 * Errors are OpenAI's, as on the chat route.
 */
public final class ResponsesCodec extends AbstractIngressCodec {
    private final ResponseStore store;
    private final PreviousResponses previousResponses;
    private final Clock clock;
    private final Supplier<String> ids;

    /** @param ids new response ids ({@code resp_...}) */
    public ResponsesCodec(ResponseStore store, Clock clock, Supplier<String> ids) {
        super("responses", Operation.CHAT_COMPLETIONS, Dialect.OPENAI_RESPONSES);
        this.store = store;
        this.previousResponses = new PreviousResponses(store);
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public ModelRequest decode(Buffer bytes, JsonReading json) {
        ObjectNode body = OpenAiFields.object(bytes, json);
        return decode(body, OpenAiFields.requireString(body, "model"));
    }

    /**
     * The call as the gateway reads it: chat completions, when the bridge can carry it; else
     * an approximate view naming why not, and the call goes only to deployments that serve the
     * Responses API themselves, which take everything it holds.
     */
    private static ModelRequest decode(ObjectNode body, String group) {
        boolean stream = body.path("stream").asBoolean(false);
        ResponsesBridge.Bridged bridged = bridged(body);
        ObjectNode chat;
        try {
            ResponsesRequest request = ResponsesApi.decodeRequest(bridged.translatable());
            chat = OpenAiChat.encodeRequest(request.chat());
            if (!bridged.leftOut().isEmpty()) {
                chat.put(GatewayFields.UNTRANSLATABLE, String.join(", ", bridged.leftOut()));
            }
        } catch (IllegalArgumentException untranslatable) {
            chat = ApproximateChat.of(group, turns(body), stream, untranslatable.getMessage());
        }
        if (stream) {
            chat.putObject("stream_options").put("include_usage", true);
        }
        GatewayFields.copy(body, chat);
        return new ModelRequest(Operation.CHAT_COMPLETIONS, Dialect.OPENAI_RESPONSES, chat, group, stream, Map.of(), body, Optional.empty());
    }

    /** The turns of a Responses body, its instructions first, for {@link ApproximateChat}. */
    private static List<Map.Entry<String, JsonNode>> turns(ObjectNode body) {
        List<Map.Entry<String, JsonNode>> turns = new ArrayList<>();
        if (body.hasNonNull("instructions")) {
            turns.add(Map.entry("system", body.get("instructions")));
        }
        JsonNode input = body.get("input");
        if (input != null && input.isArray()) {
            for (JsonNode item : input) {
                turns.add(Map.entry("assistant".equals(item.path("role").asText()) ? "assistant" : "user", item));
            }
        } else if (input != null) {
            turns.add(Map.entry("user", input));
        }
        return turns;
    }

    private static ResponsesBridge.Bridged bridged(ObjectNode body) {
        ObjectNode own = JsonNodeFactory.instance.objectNode();
        body.properties().forEach(field -> {
            if (!GatewayFields.isGatewayField(field.getKey())) {
                own.set(field.getKey(), field.getValue());
            }
        });
        JsonNode continued = body.get(GatewayFields.CONTINUED_FROM);
        if (continued != null && continued.isTextual()) {
            own.set("previous_response_id", continued); // answered as the call the caller made
        }
        return ResponsesBridge.of(own);
    }

    /**
     * A call that names a {@code previous_response_id} this gateway kept for the caller goes on
     * with the kept turns put before its own input and the id taken out, so that every
     * deployment, whatever it serves, sees the whole conversation. A response a deployment's
     * own Responses API made goes to such a deployment with its id, when it was handed to this
     * caller ({@link PreviousResponses}).
     */
    @Override
    public Future<ModelRequest> prepare(ModelRequest decoded, Caller caller) {
        JsonNode previous = decoded.callerBody().get("previous_response_id");
        if (previous == null || !previous.isTextual()) {
            return Future.succeededFuture(decoded);
        }
        return previousResponses.find(previous.textValue(), caller)
                .map(found -> found.map(kept -> decode(continued(decoded.callerBody(), kept), decoded.group())).orElse(decoded));
    }

    private static ObjectNode continued(ObjectNode body, StoredResponse kept) {
        ArrayNode input;
        try {
            input = (ArrayNode) Json.parse(kept.conversationJson().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException | ClassCastException unreadable) {
            throw new IllegalStateException("the kept conversation of response " + kept.id() + " is not a JSON array", unreadable);
        }
        JsonNode own = body.get("input");
        if (own != null && own.isTextual()) {
            input.addObject().put("type", "message").put("role", "user").put("content", own.textValue());
        } else if (own != null && own.isArray()) {
            input.addAll((ArrayNode) own);
        }
        ObjectNode joined = body.objectNode().setAll(body);
        joined.remove("previous_response_id");
        joined.put(GatewayFields.CONTINUED_FROM, kept.id());
        joined.set("input", input);
        return joined;
    }

    @Override
    public AnswerEncoding answers(ModelRequest request, Caller caller) {
        ResponsesRequest read = readOrNone(request);
        ResponseKeeper keeper = new ResponseKeeper(store, ResponseOwners.of(caller), request.group(), clock.instant());
        // Without keys there is no other key to keep out; with store: false the vendor keeps nothing to continue.
        boolean claimsVendorIds = !(caller instanceof Caller.Open) && request.callerBody().path("store").asBoolean(true);
        return new ResponsesAnswers(read, new ResponseMeta(ids.get(), clock.instant().getEpochSecond(), read.model()), keeper,
                untranslatable(request), claimsVendorIds);
    }

    /**
     * The request as the bridge reads it, or, for a call only a deployment serving the Responses
     * API takes, an empty one naming its model: that call's answer is never written here, only
     * the error that may end its stream.
     */
    private static ResponsesRequest readOrNone(ModelRequest request) {
        try {
            return ResponsesApi.decodeRequest(bridged(request.callerBody()).translatable());
        } catch (IllegalArgumentException untranslatable) {
            return ResponsesApi.decodeRequest(JsonNodeFactory.instance.objectNode().put("model", request.group()).put("input", ""));
        }
    }

    /**
     * Why a call cannot go through chat completions, when it cannot: it continues a response
     * this gateway did not keep, or holds what only the Responses API itself takes.
     */
    private static Optional<String> untranslatable(ModelRequest request) {
        JsonNode previous = request.callerBody().get("previous_response_id");
        if (previous != null && previous.isTextual()) {
            return Optional.of("Previous response with id '" + previous.textValue() + "' not found. Sluice keeps the responses"
                    + " it answered through chat completions; a response made by a deployment's own Responses API is continued"
                    + " only by such a deployment (OpenAI, Azure OpenAI).");
        }
        JsonNode why = request.body().get(GatewayFields.UNTRANSLATABLE);
        if (why != null) {
            return Optional.of("This request cannot be sent through chat completions: " + why.asText()
                    + " (only a deployment serving the Responses API itself takes it: OpenAI, Azure OpenAI).");
        }
        return Optional.empty();
    }
}
