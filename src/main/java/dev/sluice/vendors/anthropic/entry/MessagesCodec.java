package dev.sluice.vendors.anthropic.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.model.Dialect;
import dev.sluice.model.GatewayFields;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.entry.AnswerEncoding;
import dev.sluice.vendors.entry.ApproximateChat;
import dev.sluice.vendors.entry.AbstractIngressCodec;
import dev.sluice.vendors.entry.WrittenError;
import dev.sluice.vendors.openai.entry.OpenAiFields;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonReading;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Anthropic's Messages API ({@code POST /v1/messages}), for Claude Code and the Anthropic
 * SDKs. A body is checked as Anthropic checks it ({@code model}, {@code max_tokens} and
 * {@code messages} are required), translated to OpenAI's chat form for the gateway's rules and
 * for deployments of other dialects ({@link MessagesToOpenAi}), and kept whole for deployments
 * that serve the Messages API, which get it untranslated. Answers, streams and errors are
 * written in Anthropic's shapes.
 */
public final class MessagesCodec extends AbstractIngressCodec {
    public static final MessagesCodec MESSAGES = new MessagesCodec("messages", true);
    /** {@code POST /v1/messages/count_tokens}: the same body, {@code max_tokens} not needed. */
    public static final MessagesCodec COUNT_TOKENS = new MessagesCodec("count_tokens", false);

    private final boolean needsMaxTokens;

    private MessagesCodec(String name, boolean needsMaxTokens) {
        super(name, Operation.CHAT_COMPLETIONS, Dialect.ANTHROPIC);
        this.needsMaxTokens = needsMaxTokens;
    }

    @Override
    public ModelRequest decode(Buffer bytes, JsonReading json) {
        ObjectNode body = OpenAiFields.object(bytes, json);
        String group = OpenAiFields.requireString(body, "model");
        JsonNode maxTokens = body.get("max_tokens");
        if (needsMaxTokens && (maxTokens == null || maxTokens.isNull())) {
            throw refused("max_tokens: Field required");
        }
        if (maxTokens != null && (!maxTokens.canConvertToInt() || !maxTokens.isIntegralNumber() || maxTokens.intValue() < 1)) {
            throw refused("max_tokens: Input should be a positive integer, not " + maxTokens);
        }
        boolean stream = needsMaxTokens && booleanField(body, "stream");
        JsonNode messages = body.get("messages");
        if (messages == null || !messages.isArray()) {
            throw refused("messages: Input should be a valid list");
        }
        ObjectNode openAi;
        try {
            // A count needs no max_tokens, which the translation reads: any will do for counting.
            openAi = MessagesToOpenAi.body(maxTokens == null ? body.objectNode().<ObjectNode>setAll(body).put("max_tokens", 1) : body);
        } catch (IllegalArgumentException untranslatable) {
            // Anthropic's own blocks and tools (documents, server tools, ...) go to Anthropic as sent; no other vendor takes them.
            openAi = ApproximateChat.of(group, turns(body), stream, untranslatable.getMessage());
            GatewayFields.copy(body, openAi);
        }
        return new ModelRequest(Operation.CHAT_COMPLETIONS, Dialect.ANTHROPIC, openAi, group, stream, Map.of(), body, Optional.empty());
    }

    @Override
    public WrittenError error(int status, ObjectNode openAiError) {
        return MessagesErrors.of(status, openAiError);
    }

    @Override
    public AnswerEncoding answers(ModelRequest request, Caller caller) {
        JsonNode untranslatable = request.body().get(GatewayFields.UNTRANSLATABLE);
        return untranslatable == null ? MessagesAnswers.TRANSLATABLE
                : new MessagesAnswers(Optional.of("This request cannot be sent to a deployment of another vendor than Anthropic: "
                        + untranslatable.asText()));
    }

    /** The turns of a Messages body, its system prompt first, for {@link ApproximateChat}. */
    private static List<Map.Entry<String, JsonNode>> turns(ObjectNode body) {
        List<Map.Entry<String, JsonNode>> turns = new ArrayList<>();
        if (body.hasNonNull("system")) {
            turns.add(Map.entry("system", body.get("system")));
        }
        for (JsonNode message : body.get("messages")) {
            turns.add(Map.entry("assistant".equals(message.path("role").asText()) ? "assistant" : "user", message.path("content")));
        }
        return turns;
    }

    static boolean booleanField(ObjectNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw refused(name + ": Input should be a valid boolean, not " + value);
        }
        return value.booleanValue();
    }

    static ApiError refused(String message) {
        return ApiError.invalidRequest(message, null, "invalid_request_error");
    }
}
