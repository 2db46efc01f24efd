package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.limits.Admission;
import dev.sluice.accounts.limits.Admission.Admitted;
import dev.sluice.accounts.limits.Admission.Refused;
import dev.sluice.accounts.limits.LimitKind;
import dev.sluice.accounts.limits.LimitSubject;
import dev.sluice.accounts.limits.Limits;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.FakeClock;
import io.vertx.core.Promise;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deciding alone on what was heard of a window, over fake time, with a link that never
 * connects: the share of what was left, its minute's edges, the requests held apart until
 * Redis's late answer, and a scope's calls in flight.
 */
class OutageLimitsTest {
    private static final Instant MINUTE = FakeClock.START;
    private static final LimitSubject RPM_10 = LimitSubject.key("k1", Limits.NONE.withRpm(10));

    private final FakeClock clock = new FakeClock();
    private final RedisLink neverUp = RedisLink.to("redis://127.0.0.1:1", "test:", Duration.ofMillis(50), Duration.ofSeconds(3), Clock.systemUTC());
    private final AtomicLong openThroughRedis = new AtomicLong();
    private final OutageLimits limits = new OutageLimits(neverUp, () -> 2, clock, OutageLimitsTest::window, 120,
            scope -> openThroughRedis.get());

    @AfterEach
    void close() {
        neverUp.close();
    }

    private static String window(Scope scope, long minute) {
        return "w:" + scope.value() + ":" + minute;
    }

    private static String k1(Instant at) {
        return window(new Scope.Key("k1"), at.getEpochSecond() / 60);
    }

    private int admitted(LimitSubject subject, Instant at, int tries) {
        int admitted = 0;
        for (int i = 0; i < tries; i++) {
            if (limits.admit(subject, at, null) instanceof Admitted) {
                admitted++;
            }
        }
        return admitted;
    }

    @Test
    void aReplicaAdmitsItsShareOfWhatWasLeftAndThenRefusesWithTheShareAsTheLimit() {
        Instant now = MINUTE.plusSeconds(10);
        limits.heard(k1(now), now.getEpochSecond() / 60, 4, 0);

        assertThat(admitted(RPM_10, now, 3)).as("half of the six left").isEqualTo(3);
        Admission fourth = limits.admit(RPM_10, now, null);
        assertThat(fourth).isInstanceOfSatisfying(Refused.class, refused -> {
            assertThat(refused.limit()).isEqualTo(3);
            assertThat(refused.kind()).isEqualTo(LimitKind.REQUESTS);
            assertThat(refused.retryAfterSeconds()).isEqualTo(50);
        });
    }

    @Test
    void aSpentWindowIsRefusedToItsLastMillisecondAndTheNextMinuteStartsWithAWholeShare() {
        Instant now = MINUTE.plusSeconds(10);
        limits.heard(k1(now), now.getEpochSecond() / 60, 10, 0);

        assertThat(limits.admit(RPM_10, MINUTE.plusSeconds(59).plusMillis(999), null)).isInstanceOf(Refused.class);
        assertThat(admitted(RPM_10, MINUTE.plusSeconds(60), 10)).as("half of a minute heard nothing of").isEqualTo(5);
    }

    @Test
    void whatIsHeardOnlyGrowsWhateverOrderTheCountsArriveIn() {
        Instant now = MINUTE.plusSeconds(10);
        long minute = now.getEpochSecond() / 60;
        limits.heard(k1(now), minute, 6, 0);
        limits.heard(k1(now), minute, 5, 0); // an older count, arriving late

        assertThat(admitted(RPM_10, now, 10)).as("half of the four left").isEqualTo(2);
    }

    @Test
    void aRequestRedisMayHaveCountedHoldsItsPlaceUntilTheLateAnswerAndIsFreedIfRedisCountedIt() {
        Instant now = MINUTE.plusSeconds(10);
        limits.heard(k1(now), now.getEpochSecond() / 60, 8, 0);
        Promise<Boolean> late = Promise.promise();

        assertThat(limits.admit(RPM_10, now, late.future())).as("the one of the two left").isInstanceOf(Admitted.class);
        assertThat(limits.admit(RPM_10, now, null)).as("held while the answer is owed").isInstanceOf(Refused.class);

        // Redis counted it: the count it answered with is heard, and it is not this replica's alone any more.
        limits.heard(k1(now), now.getEpochSecond() / 60, 9, 0);
        late.complete(true);
        assertThat(limits.admit(RPM_10, now, null)).as("9 heard: half of one left is none").isInstanceOf(Refused.class);
    }

    @Test
    void aRequestRedisDidNotCountStaysThisReplicasToWriteBack() {
        Instant now = MINUTE.plusSeconds(10);
        limits.heard(k1(now), now.getEpochSecond() / 60, 6, 0);
        Promise<Boolean> late = Promise.promise();

        assertThat(limits.admit(RPM_10, now, late.future())).isInstanceOf(Admitted.class);
        late.complete(false);
        assertThat(admitted(RPM_10, now, 10)).as("one of the two each was taken").isEqualTo(1);
    }

    @Test
    void callsInFlightThroughRedisCountAgainstTheParallelShare() {
        LimitSubject parallel3 = LimitSubject.key("k1", Limits.NONE.withMaxParallelRequests(3));
        Instant now = MINUTE.plusSeconds(10);
        openThroughRedis.set(1);
        assertThat(limits.admit(parallel3, now, null)).as("3 / 2 is 1, held by a call admitted through Redis")
                .isInstanceOf(Refused.class);

        openThroughRedis.set(0);
        Admitted one = (Admitted) limits.admit(parallel3, now, null);
        assertThat(limits.admit(parallel3, now, null)).isInstanceOf(Refused.class);
        one.permit().release(0);
        assertThat(limits.admit(parallel3, now, null)).as("its place is free again").isInstanceOf(Admitted.class);
    }
}
