package dev.sluice.vendors.bedrock.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.anthropic.wire.AnthropicStreamDecoder;
import dev.sluice.vendors.anthropic.wire.AnthropicStreamError;
import dev.sluice.vendors.bedrock.wire.BedrockErrors;
import dev.sluice.vendors.stream.EventDecoder;
import dev.sluice.vendors.stream.Frame;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.wire.Json;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Clock;
import java.util.Base64;
import java.util.List;

/**
 * InvokeModelWithResponseStream's frames for Claude into internal events. Each {@code chunk}
 * event's payload is {@code {"bytes": "<base64>"}}, the bytes one Messages API stream event's
 * JSON ({@code message_start}, {@code content_block_delta}, ...), read as Anthropic's own stream
 * is read. An exception frame ({@code throttlingException}, {@code modelStreamErrorException},
 * ...) fails the stream as Bedrock's HTTP answer with that exception would; an Anthropic
 * {@code error} event inside a chunk fails it as Anthropic's answer with that error would.
 * Event types other than {@code chunk} carry nothing a chat answer needs and are skipped.
 */
record InvokeStreamDecoder(AnthropicStreamDecoder anthropic, Clock clock) implements EventDecoder {
    static final String CHUNK = "chunk";

    @Override
    public List<StreamEvent> decode(Frame frame) {
        if (frame.type().endsWith("Exception")) {
            JsonNode payload = json(frame);
            String message = payload.path("message").asText(payload.path("Message").asText("the stream ended with " + frame.type()));
            throw new StreamFailure(BedrockFailures.ofStreamException(BedrockErrors.exceptionName(frame.type()), message));
        }
        if (!frame.type().equals(CHUNK)) {
            return List.of();
        }
        byte[] event = eventBytes(json(frame));
        try {
            return anthropic.decode(null, event);
        } catch (AnthropicStreamError error) {
            throw new StreamFailure(FailureClassifier.fromAnswer(error.status(), Buffer.buffer(error.payload()),
                    MultiMap.caseInsensitiveMultiMap(), clock.instant()));
        } catch (IllegalArgumentException unreadable) {
            throw unreadable("a chunk whose event cannot be read: " + unreadable.getMessage());
        }
    }

    private static byte[] eventBytes(JsonNode payload) {
        JsonNode bytes = payload.path("bytes");
        if (!bytes.isTextual()) {
            throw unreadable("a chunk without its bytes (expected: {\"bytes\": \"<base64 of one Messages stream event>\"})");
        }
        try {
            return Base64.getDecoder().decode(bytes.textValue());
        } catch (IllegalArgumentException notBase64) {
            throw unreadable("a chunk whose bytes are not base64: " + notBase64.getMessage());
        }
    }

    private static JsonNode json(Frame frame) {
        if (frame.payload().length == 0) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            JsonNode payload = Json.parse(frame.payload());
            return payload == null ? JsonNodeFactory.instance.objectNode() : payload;
        } catch (IOException notJson) {
            throw unreadable("a " + frame.type() + " event that is not JSON");
        }
    }

    private static StreamFailure unreadable(String what) {
        return new StreamFailure(Failure.of(FailureClass.SERVER, "Bedrock sent " + what));
    }
}
