package dev.sluice.ingress.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ingress.IngressCodec;
import dev.sluice.llm.Dialect;
import dev.sluice.llm.ModelRequest;
import dev.sluice.llm.Operation;
import io.vertx.core.buffer.Buffer;

/**
 * OpenAI's entry APIs: chat completions, text completions and embeddings. A body is checked
 * just enough to route it: a JSON object with a string {@code model} and the input field its
 * operation requires. Everything else is the upstream's to judge, and errors read as
 * OpenAI's own do.
 */
public final class OpenAiCodec implements IngressCodec {
    public static final OpenAiCodec CHAT_COMPLETIONS = new OpenAiCodec(Operation.CHAT_COMPLETIONS, "chat_completions");
    public static final OpenAiCodec COMPLETIONS = new OpenAiCodec(Operation.COMPLETIONS, "completions");
    public static final OpenAiCodec EMBEDDINGS = new OpenAiCodec(Operation.EMBEDDINGS, "embeddings");

    private final Operation operation;
    private final String name;

    private OpenAiCodec(Operation operation, String name) {
        this.operation = operation;
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Operation operation() {
        return operation;
    }

    @Override
    public Dialect dialect() {
        return Dialect.OPENAI;
    }

    @Override
    public ModelRequest decode(Buffer bytes) {
        ObjectNode body = OpenAiFields.object(bytes);
        String group = OpenAiFields.requireString(body, "model");
        switch (operation) {
            case CHAT_COMPLETIONS -> OpenAiFields.requireMessages(body);
            case COMPLETIONS -> OpenAiFields.requireStringOrArray(body, "prompt");
            case EMBEDDINGS -> OpenAiFields.requireStringOrArray(body, "input");
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
