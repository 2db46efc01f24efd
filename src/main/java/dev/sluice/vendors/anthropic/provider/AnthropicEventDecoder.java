package dev.sluice.vendors.anthropic.provider;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.anthropic.wire.AnthropicStreamDecoder;
import dev.sluice.vendors.anthropic.wire.AnthropicStreamError;
import dev.sluice.vendors.stream.EventDecoder;
import dev.sluice.vendors.stream.Frame;
import dev.sluice.vendors.stream.StreamFailure;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A Messages API stream's events for {@link dev.sluice.vendors.stream.TranslatedStream}. An
 * {@code event: error} is classified exactly as Anthropic's answer with the same error would
 * be: its {@code error.type} gives the status ({@code overloaded_error} 529,
 * {@code rate_limit_error} 429, ...) and its data is the body. An event that cannot be read
 * is a server failure.
 */
final class AnthropicEventDecoder implements EventDecoder {
    private final AnthropicStreamDecoder decoder;
    private final Clock clock;

    AnthropicEventDecoder(boolean jsonMode, Clock clock) {
        this.decoder = new AnthropicStreamDecoder(jsonMode);
        this.clock = clock;
    }

    @Override
    public List<StreamEvent> decode(Frame frame) {
        try {
            return decoder.decode(frame.type(), frame.payload());
        } catch (AnthropicStreamError error) {
            throw new StreamFailure(FailureClassifier.fromAnswer(error.status(), Buffer.buffer(error.payload()),
                    MultiMap.caseInsensitiveMultiMap(), clock.instant()));
        } catch (IllegalArgumentException unreadable) {
            throw new StreamFailure(new Failure(FailureClass.SERVER, 0, Buffer.buffer(frame.payload()), Optional.empty(),
                    "Anthropic sent a stream event that cannot be read: " + unreadable.getMessage()));
        }
    }
}
