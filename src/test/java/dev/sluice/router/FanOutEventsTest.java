package dev.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every listener of a router event reads what the router reported, whatever the listeners
 * before it did with their arguments: a logging listener that rewrote the failure it was
 * handed would otherwise change what the metrics (or a test) read next.
 */
class FanOutEventsTest {
    private static final String BODY = "{\"error\":{\"message\":\"upstream said no\"}}";

    /** Tries to change everything it is handed. */
    private static final class Meddler implements RouterEvents {
        @Override
        public void attemptFailed(String callId, String group, String deploymentId, Failure failure) {
            failure.body().setBytes(0, "XXXXXXXX".getBytes()).appendString("tampered");
        }

        @Override
        public void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {
            failure.ifPresent(f -> f.body().appendString("tampered"));
        }
    }

    /** Writes down the body it reads. */
    private static final class Reader implements RouterEvents {
        final List<String> bodies = new ArrayList<>();

        @Override
        public void attemptFailed(String callId, String group, String deploymentId, Failure failure) {
            bodies.add(failure.body().toString());
        }

        @Override
        public void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {
            failure.ifPresent(f -> bodies.add(f.body().toString()));
        }
    }

    @Test
    void aListenerThatWritesToTheFailureChangesNothingTheNextOneReads() {
        Reader reader = new Reader();
        RouterEvents events = RouterEvents.all(new Meddler(), reader);
        Failure failure = new Failure(FailureClass.SERVER, 500, Buffer.buffer(BODY), Optional.of(Duration.ofSeconds(1)), "");

        events.attemptFailed("c1", "g", "a", failure);
        events.attemptEnded("c1", "g", "a", Optional.of(failure), 1_000);

        assertThat(reader.bodies).containsExactly(BODY, BODY);
        assertThat(failure.body().toString()).isEqualTo(BODY);
    }

    @Test
    void theListenerListCannotBeChangedAfterTheFanOutIsMade() {
        Reader first = new Reader();
        Reader added = new Reader();
        List<RouterEvents> listeners = new ArrayList<>(List.of(first));
        RouterEvents events = new FanOutEvents(listeners);

        listeners.add(added);
        events.attemptFailed("c1", "g", "a", new Failure(FailureClass.SERVER, 500, Buffer.buffer(BODY), Optional.empty(), ""));

        assertThat(first.bodies).containsExactly(BODY);
        assertThat(added.bodies).isEmpty();
    }
}
