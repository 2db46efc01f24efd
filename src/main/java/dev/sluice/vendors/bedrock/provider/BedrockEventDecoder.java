package dev.sluice.vendors.bedrock.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.bedrock.wire.ConverseStreamDecoder;
import dev.sluice.vendors.bedrock.wire.ConverseStreamError;
import dev.sluice.vendors.stream.EventDecoder;
import dev.sluice.vendors.stream.Frame;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.util.List;

/** ConverseStream frames into internal events; an exception frame fails the stream as its HTTP answer would. */
final class BedrockEventDecoder implements EventDecoder {
    private final ConverseStreamDecoder converse;

    BedrockEventDecoder(ConverseStreamDecoder converse) {
        this.converse = converse;
    }

    @Override
    public List<StreamEvent> decode(Frame frame) {
        JsonNode payload;
        try {
            payload = frame.payload().length == 0 ? JsonNodeFactory.instance.objectNode() : Json.parse(frame.payload());
        } catch (IOException notJson) {
            throw new StreamFailure(Failure.of(FailureClass.SERVER, "Bedrock sent a " + frame.type() + " event that is not JSON"));
        }
        try {
            return converse.decode(frame.type(), frame.type().endsWith("Exception"), payload);
        } catch (ConverseStreamError error) {
            throw new StreamFailure(BedrockFailures.ofStreamException(error.exceptionName(), error.getMessage()));
        } catch (IllegalArgumentException unreadable) {
            throw new StreamFailure(Failure.of(FailureClass.SERVER, "Bedrock sent an unreadable " + frame.type()
                    + " event: " + unreadable.getMessage()));
        }
    }
}
