package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.SkipReason;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The recorder the routing tests read: both renderings of one event, and a wait that ends with the line it waits for. */
class RecordingEventsTest {
    private final FakeTime time = new FakeTime();
    private final Failure limited = new Failure(FailureClass.RATE_LIMITED, 429, Buffer.buffer("{}"),
            Optional.of(Duration.ofSeconds(2)), "");

    @Test
    void eachEventIsOneDetailedLineAndABriefOneWhenItIsARoutingDecision() {
        RecordingEvents events = new RecordingEvents(time);
        events.attempt("c1", "chat", "a1", 0);
        time.advance(Duration.ofMillis(250));
        events.attemptEnded("c1", "chat", "a1", Optional.of(limited), Duration.ofMillis(250).toNanos());
        events.attemptFailed("c1", "chat", "a1", limited);
        events.failover("c1", "chat", "a1", limited);

        assertThat(events.lines()).containsExactly("@0 attempt chat/a1 #0", "@250 ended chat/a1 rate_limited after 250ms",
                "@250 failed chat/a1 rate_limited 429 retry-after 2000ms", "@250 failover chat/a1 rate_limited");
        assertThat(events.brief()).containsExactly("attempt a1", "failed a1 rate_limited", "failover a1");
        assertThat(events.drainBrief()).hasSize(3);
        assertThat(events.lines()).isEmpty();
    }

    @Test
    void withoutAClockTheLinesCarryNoStamp() {
        RecordingEvents events = new RecordingEvents();
        events.skip("c1", "g1", "g2", SkipReason.ALREADY_TRIED);

        assertThat(events.lines()).containsExactly("skip g1->g2 already_tried");
        assertThat(events.brief()).containsExactly("skip g2 already_tried");
    }

    @Test
    void aWaitEndsWhenAnotherThreadReportsTheLine() throws Exception {
        RecordingEvents events = new RecordingEvents();
        Thread reporter = Thread.ofVirtual().start(() -> events.unbench("chat", "a1"));

        events.awaitBrief("unbench a1", Duration.ofSeconds(10));
        reporter.join();
        assertThat(events.brief()).containsExactly("unbench a1");
    }

    @Test
    void aWaitForALineThatNeverComesFailsNamingTheLinesSeen() {
        RecordingEvents events = new RecordingEvents();
        events.unbench("chat", "a2");

        assertThatThrownBy(() -> events.awaitBrief("unbench a1", Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("unbench a1").hasMessageContaining("[unbench a2]");
    }
}
