package dev.sluice.vendors.openai.responses.store;

import static dev.sluice.vendors.openai.responses.store.StoredResponses.response;
import static dev.sluice.vendors.openai.responses.store.StoredResponses.sized;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.StoredResponse;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.FakeClock;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@link MemoryResponses}: its owners, its expiry and each of its bounds, on both sides. */
class MemoryResponsesTest {
    static final Duration HOUR = Duration.ofHours(1);
    static final ResponseLimits ROOMY = new ResponseLimits(HOUR, 1_000, 1_000_000);

    private final FakeClock clock = new FakeClock();

    @Test
    void aSavedResponseIsFoundByItsOwnerOnly() {
        MemoryResponses responses = new MemoryResponses(ROOMY, clock);
        StoredResponse saved = response("resp_1", "owner-a", clock.instant(), ROOMY);

        assertThat(responses.save(saved).succeeded()).isTrue();

        assertThat(find(responses, "resp_1", "owner-a")).contains(saved);
        assertThat(find(responses, "resp_1", "owner-b")).isEmpty();
        assertThat(find(responses, "resp_2", "owner-a")).isEmpty();
    }

    @Test
    void findAnyFindsItWhoeverSavedItUntilItExpires() {
        MemoryResponses responses = new MemoryResponses(ROOMY, clock);
        StoredResponse saved = response("resp_1", "owner-a", clock.instant(), ROOMY);
        responses.save(saved);

        assertThat(responses.findAny("resp_1").result()).contains(saved);
        assertThat(responses.findAny("resp_2").result()).isEmpty();
        clock.advance(HOUR.minusNanos(1000));
        assertThat(responses.findAny("resp_1").result()).as("just before it expires").contains(saved);
        clock.advance(Duration.ofNanos(1000));
        assertThat(responses.findAny("resp_1").result()).as("from its expiry on").isEmpty();
    }

    @Test
    void onlyItsOwnerDeletesItAndOnlyOnce() {
        MemoryResponses responses = new MemoryResponses(ROOMY, clock);
        responses.save(response("resp_1", "owner-a", clock.instant(), ROOMY));

        assertThat(delete(responses, "resp_1", "owner-b")).isFalse();
        assertThat(delete(responses, "resp_1", "owner-a")).isTrue();
        assertThat(delete(responses, "resp_1", "owner-a")).isFalse();
        assertThat(find(responses, "resp_1", "owner-a")).isEmpty();
        assertThat(responses.count()).isZero();
        assertThat(responses.bytes()).isZero();
    }

    @Test
    void anIdIsTakenOnce() {
        MemoryResponses responses = new MemoryResponses(ROOMY, clock);
        responses.save(response("resp_1", "owner-a", clock.instant(), ROOMY));

        Future<Void> again = responses.save(response("resp_1", "owner-b", clock.instant(), ROOMY));

        assertThat(again.failed()).isTrue();
        assertThat(again.cause()).isInstanceOf(IllegalStateException.class).hasMessage("response resp_1: the id is already taken");
        assertThat(find(responses, "resp_1", "owner-a")).isPresent();
    }

    @Test
    void aResponseIsServedUntilMaxAgeHasPassed() {
        MemoryResponses responses = new MemoryResponses(ROOMY, clock);
        responses.save(response("resp_1", "owner-a", clock.instant(), ROOMY));

        clock.advance(HOUR.minusNanos(1));
        assertThat(find(responses, "resp_1", "owner-a")).isPresent();
        assertThat(delete(responses, "resp_1", "owner-b")).isFalse();

        clock.advance(Duration.ofNanos(1));
        assertThat(delete(responses, "resp_1", "owner-a")).isFalse();
        assertThat(find(responses, "resp_1", "owner-a")).isEmpty();
    }

    @Test
    void aSaveDropsTheResponsesThatHaveExpiredAndKeepsTheOthers() {
        MemoryResponses responses = new MemoryResponses(ROOMY, clock);
        responses.save(sized("resp_1", "owner-a", clock.instant(), ROOMY, 100));
        clock.advance(Duration.ofMinutes(1));
        responses.save(sized("resp_2", "owner-a", clock.instant(), ROOMY, 200));

        clock.set(FakeClock.START.plus(HOUR));
        responses.save(sized("resp_3", "owner-a", clock.instant(), ROOMY, 300));

        assertThat(responses.count()).isEqualTo(2);
        assertThat(responses.bytes()).isEqualTo(500);
        assertThat(kept(responses, "resp_1", "resp_2", "resp_3")).containsExactly("resp_2", "resp_3");
    }

    @Test
    void atMaxCountAllAreKeptAndOneMoreDropsTheOldest() {
        ResponseLimits three = new ResponseLimits(HOUR, 3, 1_000_000);
        MemoryResponses responses = new MemoryResponses(three, clock);
        for (int i = 1; i <= 3; i++) {
            responses.save(response("resp_" + i, "owner-a", clock.instant(), three));
        }
        assertThat(kept(responses, "resp_1", "resp_2", "resp_3")).hasSize(3);

        responses.save(response("resp_4", "owner-a", clock.instant(), three));

        assertThat(kept(responses, "resp_1", "resp_2", "resp_3", "resp_4")).containsExactly("resp_2", "resp_3", "resp_4");
        assertThat(responses.count()).isEqualTo(3);
    }

    @Test
    void atMaxBytesAllAreKeptAndOneByteMoreDropsTheOldest() {
        ResponseLimits fits = new ResponseLimits(HOUR, 100, 300);
        MemoryResponses exact = new MemoryResponses(fits, clock);
        ResponseLimits short1 = new ResponseLimits(HOUR, 100, 299);
        MemoryResponses over = new MemoryResponses(short1, clock);
        for (int i = 1; i <= 3; i++) {
            exact.save(sized("resp_" + i, "owner-a", clock.instant(), fits, 100));
            over.save(sized("resp_" + i, "owner-a", clock.instant(), short1, 100));
        }

        assertThat(kept(exact, "resp_1", "resp_2", "resp_3")).containsExactly("resp_1", "resp_2", "resp_3");
        assertThat(exact.bytes()).isEqualTo(300);
        assertThat(kept(over, "resp_1", "resp_2", "resp_3")).containsExactly("resp_2", "resp_3");
        assertThat(over.bytes()).isEqualTo(200);
    }

    @Test
    void aLargeResponseDropsAsManyOldOnesAsItNeedsRoomFor() {
        ResponseLimits limits = new ResponseLimits(HOUR, 100, 300);
        MemoryResponses responses = new MemoryResponses(limits, clock);
        for (int i = 1; i <= 3; i++) {
            responses.save(sized("resp_" + i, "owner-a", clock.instant(), limits, 100));
        }

        responses.save(sized("resp_big", "owner-a", clock.instant(), limits, 250));

        assertThat(kept(responses, "resp_1", "resp_2", "resp_3", "resp_big")).containsExactly("resp_big");
        assertThat(responses.bytes()).isEqualTo(250);
    }

    @Test
    void aResponseLargerThanMaxBytesIsRefusedAndNothingIsDropped() {
        ResponseLimits limits = new ResponseLimits(HOUR, 100, 300);
        MemoryResponses responses = new MemoryResponses(limits, clock);
        responses.save(sized("resp_1", "owner-a", clock.instant(), limits, 100));

        Future<Void> refused = responses.save(sized("resp_big", "owner-a", clock.instant(), limits, 301));

        assertThat(refused.cause()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("response resp_big: 301 bytes of JSON (expected: at most maxBytes, 300, to be kept)");
        assertThat(kept(responses, "resp_1", "resp_big")).containsExactly("resp_1");
        assertThat(responses.save(sized("resp_max", "owner-a", clock.instant(), limits, 300)).succeeded()).isTrue();
        assertThat(kept(responses, "resp_1", "resp_max")).containsExactly("resp_max");
    }

    @Test
    void savesFromManyThreadsAtOnceStayWithinTheBoundsAndAddUp() throws Exception {
        ResponseLimits limits = new ResponseLimits(HOUR, 100, 1_000_000);
        MemoryResponses responses = new MemoryResponses(limits, clock);

        Concurrently.run(8, thread -> {
            for (int i = 0; i < 500; i++) {
                Instant now = clock.instant();
                assertThat(responses.save(sized("resp_" + thread + "_" + i, "owner-" + thread, now, limits, 100)).succeeded()).isTrue();
                responses.find("resp_" + thread + "_" + (i / 2), "owner-" + thread);
            }
        });

        assertThat(responses.count()).isEqualTo(100);
        assertThat(responses.bytes()).isEqualTo(100 * 100);
    }

    private static Optional<StoredResponse> find(ResponseStore responses, String id, String owner) {
        return responses.find(id, owner).result();
    }

    private static boolean delete(ResponseStore responses, String id, String owner) {
        return responses.delete(id, owner).result();
    }

    /** Which of {@code ids} owner-a still finds. */
    private static List<String> kept(ResponseStore responses, String... ids) {
        return Stream.of(ids).filter(id -> find(responses, id, "owner-a").isPresent()).toList();
    }
}
