package dev.sluice.vendors.openai.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.entry.AbstractIngressCodec;
import dev.sluice.wire.JsonReading;
import io.vertx.core.buffer.Buffer;

/**
 * OpenAI's JSON entry APIs: chat completions, text completions, embeddings, image
 * generations, speech, moderations, and the rerank API LiteLLM serves beside them (Cohere's
 * shape). A body is checked
 * just enough to route it: a JSON object with a string {@code model} and the input field its
 * operation requires. Everything else is the upstream's to judge, and errors read as
 * OpenAI's own do.
 */
public final class OpenAiCodec extends AbstractIngressCodec {
    public static final OpenAiCodec CHAT_COMPLETIONS = new OpenAiCodec(Operation.CHAT_COMPLETIONS, "chat_completions");
    public static final OpenAiCodec COMPLETIONS = new OpenAiCodec(Operation.COMPLETIONS, "completions");
    public static final OpenAiCodec EMBEDDINGS = new OpenAiCodec(Operation.EMBEDDINGS, "embeddings");
    public static final OpenAiCodec IMAGE_GENERATIONS = new OpenAiCodec(Operation.IMAGE_GENERATIONS, "image_generations");
    public static final OpenAiCodec AUDIO_SPEECH = new OpenAiCodec(Operation.AUDIO_SPEECH, "audio_speech");
    public static final OpenAiCodec MODERATIONS = new OpenAiCodec(Operation.MODERATIONS, "moderations");
    public static final OpenAiCodec RERANK = new OpenAiCodec(Operation.RERANK, "rerank");

    /**
     * The group a moderation names when it names none: OpenAI's own default moderation model,
     * which a config serves by naming a group so.
     */
    public static final String DEFAULT_MODERATION_GROUP = "omni-moderation-latest";

    private OpenAiCodec(Operation operation, String name) {
        super(name, operation, Dialect.OPENAI);
    }

    @Override
    public ModelRequest decode(Buffer bytes, JsonReading json) {
        Operation operation = operation();
        ObjectNode body = OpenAiFields.object(bytes, json);
        String group = operation == Operation.MODERATIONS && !body.hasNonNull("model") ? DEFAULT_MODERATION_GROUP
                : OpenAiFields.requireString(body, "model");
        switch (operation) {
            case CHAT_COMPLETIONS -> OpenAiFields.requireMessages(body);
            case COMPLETIONS -> OpenAiFields.requireStringOrArray(body, "prompt");
            case EMBEDDINGS, MODERATIONS -> OpenAiFields.requireStringOrArray(body, "input");
            case IMAGE_GENERATIONS -> OpenAiFields.requireString(body, "prompt");
            case AUDIO_SPEECH -> OpenAiFields.requireString(body, "input");
            case RERANK -> {
                OpenAiFields.requireString(body, "query");
                OpenAiFields.requireArray(body, "documents");
            }
            default -> throw new IllegalStateException(operation + " is not a JSON call of OpenAI's API");
        }
        boolean stream = false;
        JsonNode streamNode = body.get("stream");
        if (streamNode != null && !streamNode.isNull()) {
            if (!streamNode.isBoolean()) {
                throw OpenAiFields.invalidType("stream", "a boolean", streamNode);
            }
            stream = streamNode.booleanValue() && operation.streamable();
        }
        JsonNode streamOptions = body.get("stream_options");
        if (streamOptions != null && !streamOptions.isNull() && !streamOptions.isObject()) {
            throw OpenAiFields.invalidType("stream_options", "an object", streamOptions);
        }
        return new ModelRequest(operation, Dialect.OPENAI, body, group, stream);
    }
}
