package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.ops.callbacks.CallRecord;
import dev.sluice.store.Team;
import java.util.List;

/** The parts of a {@link CallRecord} read off the call's request and caller, in LiteLLM's terms. */
final class CallRecordParts {
    /** The body's fields LiteLLM logs as {@code model_parameters}, when the caller set them. */
    private static final List<String> PARAMETERS = List.of("temperature", "top_p", "max_tokens", "max_completion_tokens",
            "n", "stop", "presence_penalty", "frequency_penalty", "seed", "stream");

    private CallRecordParts() {}

    /** What the caller asked for; its prompt only when {@code logsMessages}. */
    static CallRecord.Request request(AdmittedCall call, String group, boolean logsMessages) {
        ModelRequest request = call.request();
        ObjectNode body = request.body();
        ObjectNode parameters = JsonNodeFactory.instance.objectNode();
        for (String name : PARAMETERS) {
            if (body.has(name)) {
                parameters.set(name, body.get(name).deepCopy());
            }
        }
        String endUser = body.path("user").isTextual() ? body.get("user").textValue() : null;
        JsonNode messages = logsMessages ? prompt(body, call.resolved().decoded().bodyBytes()) : null;
        return new CallRecord.Request(callType(request), operation(request), request.stream(), group, endUser,
                call.tags(), parameters, messages);
    }

    /** The prompt as the body wrote it (messages, a prompt, or an input), copied: the body is the call's own. */
    private static JsonNode prompt(ObjectNode body, int bodyBytes) {
        if (bodyBytes > CallRecording.KEPT_BYTES) {
            return JsonNodeFactory.instance.textNode("(not kept: the request body is " + bodyBytes + " bytes, over the "
                    + CallRecording.KEPT_BYTES + " a callback record keeps)");
        }
        for (String field : List.of("messages", "prompt", "input")) {
            if (body.has(field)) {
                return body.get(field).deepCopy();
            }
        }
        return JsonNodeFactory.instance.nullNode();
    }

    /** LiteLLM's name of the call, as its {@code call_type} reads. */
    static String callType(ModelRequest request) {
        if (request.dialect() == Dialect.ANTHROPIC) {
            return "anthropic_messages";
        }
        if (request.dialect() == Dialect.OPENAI_RESPONSES) {
            return "aresponses";
        }
        return switch (request.operation()) {
            case CHAT_COMPLETIONS -> "acompletion";
            case COMPLETIONS -> "atext_completion";
            case EMBEDDINGS -> "aembedding";
            case RESPONSES -> "aresponses";
            case IMAGE_GENERATIONS -> "aimage_generation";
            case AUDIO_SPEECH -> "aspeech";
            // LiteLLM names no call type of its own for translations: they are transcriptions into English.
            case AUDIO_TRANSCRIPTIONS, AUDIO_TRANSLATIONS -> "atranscription";
            case MODERATIONS -> "amoderation";
            case RERANK -> "arerank";
        };
    }

    /** OpenTelemetry's {@code gen_ai.operation.name} of the call. */
    static String operation(ModelRequest request) {
        return switch (request.operation()) {
            case COMPLETIONS -> "text_completion";
            case EMBEDDINGS -> "embeddings";
            case CHAT_COMPLETIONS, RESPONSES -> "chat";
            case IMAGE_GENERATIONS -> "image_generation";
            case AUDIO_SPEECH -> "speech";
            case AUDIO_TRANSCRIPTIONS -> "transcription";
            case AUDIO_TRANSLATIONS -> "translation";
            case MODERATIONS -> "moderation";
            case RERANK -> "rerank";
        };
    }

    /** The caller's virtual key by its hash (never the key itself), its alias, team and user. */
    static CallRecord.Key key(Caller caller) {
        if (!(caller instanceof Caller.Keyed keyed)) {
            return CallRecord.Key.NONE;
        }
        return new CallRecord.Key(keyed.keyHash(), keyed.key().keyAlias().orElse(null),
                keyed.team().map(Team::teamId).orElse(keyed.key().owner().teamId().orElse(null)),
                keyed.team().flatMap(Team::teamAlias).orElse(null), keyed.key().owner().userId().orElse(null));
    }
}
