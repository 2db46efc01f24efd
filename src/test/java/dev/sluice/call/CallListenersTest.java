package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.CallEnd;
import dev.sluice.vendors.stream.StreamTranslator;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A call's events reach every listener, in the order they joined, and a listener that is off hears nothing. */
class CallListenersTest {

    /** Writes down the events it hears, under its name. */
    private record Recorder(String name, List<String> heard) implements CallListener {
        @Override
        public void upstreamWaited(long nanos) {
            heard.add(name + " waited " + nanos);
        }

        @Override
        public void settled(CallEnd end, double cost) {
            heard.add(name + " settled " + end.status() + " at " + cost);
        }

        @Override
        public void ended(int status) {
            heard.add(name + " ended " + status);
        }

        @Override
        public StreamTranslator streamStarted(StreamTranslator translator) {
            heard.add(name + " watches");
            return new Named(name, translator);
        }
    }

    /** A translator wrapped by a listener, to see which listener wrapped which. */
    private record Named(String name, StreamTranslator inner) implements StreamTranslator {
        @Override
        public Buffer feed(Buffer chunk) {
            return inner.feed(chunk);
        }

        @Override
        public Buffer end() {
            return inner.end();
        }
    }

    private static final StreamTranslator PLAIN = new StreamTranslator() {
        @Override
        public Buffer feed(Buffer chunk) {
            return chunk;
        }

        @Override
        public Buffer end() {
            return Buffer.buffer();
        }
    };

    @Test
    void everyListenerHearsEachEventInTheOrderTheyJoinedALateOneFromWhenItJoined() {
        List<String> heard = new ArrayList<>();
        CallListeners events = new CallListeners(new Recorder("headers", heard), CallListener.NONE, new Recorder("recent", heard));
        events.upstreamWaited(5);
        events.add(new Recorder("charge", heard));
        events.settled(CallEnd.unserved("gpt-4o", 429), 0.0);
        events.ended(429);

        assertThat(heard).containsExactly(
                "headers waited 5", "recent waited 5",
                "headers settled 429 at 0.0", "recent settled 429 at 0.0", "charge settled 429 at 0.0",
                "headers ended 429", "recent ended 429", "charge ended 429");
    }

    @Test
    void aStreamIsWatchedByEachListenerThatWatchesInTurnAndLeftAsItIsByTheRest() {
        List<String> heard = new ArrayList<>();
        CallListeners events = new CallListeners(new Recorder("first", heard), CallListener.NONE, new Recorder("second", heard));

        StreamTranslator used = events.streamStarted(PLAIN);

        assertThat(heard).containsExactly("first watches", "second watches");
        assertThat(used).isInstanceOf(Named.class);
        Named outer = (Named) used;
        assertThat(outer.name()).isEqualTo("second");
        assertThat(((Named) outer.inner()).name()).isEqualTo("first");
        assertThat(((Named) outer.inner()).inner()).isSameAs(PLAIN);
    }

    @Test
    void theListenerThatIsOffLeavesAStreamAsItIsAndHearsNothing() {
        assertThat(CallListener.NONE.streamStarted(PLAIN)).isSameAs(PLAIN);
        CallListeners none = new CallListeners();
        assertThat(none.streamStarted(PLAIN)).isSameAs(PLAIN);
        none.ended(200); // nobody to tell: nothing happens
    }

    @Test
    void theRecentCallIsPublishedOnceWhenItsAnswerEndsAndOnlyWithAKnownCaller() {
        RecentCalls ring = new RecentCalls(5);
        RecentCall anonymous = new RecentCall("a", 0, 0);
        RecentCallListener unknown = new RecentCallListener(anonymous, ring, null, () -> 10, MultiMap.caseInsensitiveMultiMap());
        unknown.ended(401);
        assertThat(ring.newestFirst()).isEmpty();

        RecentCall keyed = new RecentCall("b", 0, 0);
        RecentCallListener known = new RecentCallListener(keyed, ring, null, () -> 2_000_000, MultiMap.caseInsensitiveMultiMap());
        known.callerKnown(new dev.sluice.accounts.Caller.Admin());
        known.ended(200);
        known.ended(499);
        assertThat(ring.newestFirst()).containsExactly(keyed);
        assertThat(keyed.status()).isEqualTo(200);
        assertThat(keyed.latencyMillis()).isEqualTo(2);
    }
}
