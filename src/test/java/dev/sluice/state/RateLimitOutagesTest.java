package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.limits.Admission;
import dev.sluice.accounts.limits.Admission.Admitted;
import dev.sluice.accounts.limits.Admission.Refused;
import dev.sluice.accounts.limits.LimitSubject;
import dev.sluice.accounts.limits.Limits;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas' rate limits against a Redis of their own that is frozen ({@code SIGSTOP}: its
 * connections stay open and nothing answers) and thawed mid-minute: every admission of the
 * window is counted, exactly, and the two together never admit more than the limit, through one
 * outage or several. Time for the windows is a fake clock, so the whole test is one minute.
 */
class RateLimitOutagesTest {
    private static final Instant NOW = FakeClock.START.plusSeconds(5);
    private static final LimitSubject RPM_10 = LimitSubject.key("k1", Limits.NONE.withRpm(10));
    private static final Scope K1 = new Scope.Key("k1");
    /** Another key's requests, sent while Redis is frozen until each replica's breaker opens. */
    private static final LimitSubject ELSEWHERE = LimitSubject.key("k2", Limits.NONE.withRpm(1_000));

    private final FakeClock clock = new FakeClock();
    private final RedisReplicas replicas = new RedisReplicas();
    private RedisServerProcess redis;
    private RedisLink linkA;
    private RedisLink linkB;
    private RedisRateLimits a;
    private RedisRateLimits b;

    @BeforeEach
    void startRedis() {
        redis = RedisServerProcess.start();
    }

    /** Two replicas on the Redis, each telling the other it is alive every {@code beatEvery}. */
    private void twoReplicas(Duration beatEvery) {
        linkA = replicas.link(redis.url(), beatEvery);
        a = replicas.started(linkA, link -> new RedisRateLimits(link, clock, replicas.jobs()));
        linkB = replicas.link(redis.url(), beatEvery);
        b = replicas.started(linkB, link -> new RedisRateLimits(link, clock, replicas.jobs()));
    }

    private void twoReplicasSeeingEachOther() {
        twoReplicas(RedisReplicas.BEAT_EVERY);
        Eventually.until("each replica sees the other", Duration.ofSeconds(5),
                () -> a.replicasSeen() == 2 && b.replicasSeen() == 2);
    }

    @AfterEach
    void stop() throws Exception {
        replicas.close();
        redis.close();
    }

    private static Admission decide(RedisRateLimits limiter) {
        return decide(limiter, RPM_10);
    }

    private static Admission decide(RedisRateLimits limiter, LimitSubject subject) {
        try {
            return limiter.check(subject, NOW).await(5, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no decision within 5 s", e);
        }
    }

    /** Sends {@code tries} requests through {@code limiter}, releasing each admitted one; returns how many were admitted. */
    private static int admitted(RedisRateLimits limiter, int tries) {
        int admitted = 0;
        for (int i = 0; i < tries; i++) {
            if (decide(limiter) instanceof Admitted permit) {
                permit.permit().release(0);
                admitted++;
            }
        }
        return admitted;
    }

    /** Alternates {@code tries} requests between the replicas; returns how many were admitted. */
    private int admittedThroughBoth(int tries) {
        int admitted = 0;
        for (int i = 0; i < tries; i++) {
            admitted += admitted(i % 2 == 0 ? a : b, 1);
        }
        return admitted;
    }

    private long counted() {
        String window = replicas.prefix() + "limits:api_key:k1:" + NOW.getEpochSecond() / 60;
        return Long.parseLong(Objects.requireNonNullElse(redis.command("HGET", window, "r"), "0"));
    }

    private void frozenUntilBothLinksAreDown() {
        redis.freeze();
        // Each replica's own requests (and beats) go unanswered until its breaker opens.
        while (linkA.isUp() || linkB.isUp()) {
            decide(linkA.isUp() ? a : b, ELSEWHERE);
        }
    }

    private void thawedUntilBothLinksAreUp() {
        redis.thaw();
        Eventually.until("both replicas reconnect", Duration.ofSeconds(15), () -> linkA.isUp() && linkB.isUp());
    }

    @Test
    void aWindowSpentBeforeTheOutageAdmitsNothingMoreDuringItOrAfter() {
        twoReplicasSeeingEachOther();
        assertThat(admittedThroughBoth(20)).as("ten admitted, ten refused").isEqualTo(10);

        frozenUntilBothLinksAreDown();
        assertThat(admitted(a, 10) + admitted(b, 10)).as("nothing was left to share").isZero();
        assertThat(decide(a)).isInstanceOfSatisfying(Refused.class, refused -> assertThat(refused.limit()).isZero());
        assertThat(a.decidedLocally() + b.decidedLocally()).as("decided alone").isPositive();

        thawedUntilBothLinksAreUp();
        assertThat(admittedThroughBoth(4)).isZero();
        assertThat(counted()).isEqualTo(10);
    }

    @Test
    void whatWasLeftIsSharedAndTheWindowCountsEveryAdmissionOnce() {
        twoReplicasSeeingEachOther();
        assertThat(admittedThroughBoth(4)).isEqualTo(4);

        frozenUntilBothLinksAreDown();
        // Six were left: three each, however many each is asked for.
        assertThat(admitted(a, 10)).isEqualTo(3);
        assertThat(admitted(b, 10)).isEqualTo(3);

        thawedUntilBothLinksAreUp();
        Eventually.until("what each admitted alone is in the shared count", Duration.ofSeconds(10), () -> counted() >= 10);
        assertThat(admittedThroughBoth(4)).as("the minute holds ten in all").isZero();
        assertThat(counted()).as("each admission counted once").isEqualTo(10);
    }

    @Test
    void throughAFlapTheWindowStillAdmitsItsLimitAndNoMore() {
        twoReplicasSeeingEachOther();
        assertThat(admittedThroughBoth(2)).isEqualTo(2);

        frozenUntilBothLinksAreDown();
        assertThat(admitted(a, 10)).as("half of the eight left").isEqualTo(4);
        thawedUntilBothLinksAreUp();
        Eventually.until("a's four are in the shared count", Duration.ofSeconds(10), () -> counted() >= 6);
        // b was away when a wrote them back: it reads the window again once it is back.
        Eventually.until("b hears of a's four", Duration.ofSeconds(10), () -> b.heardRequests(K1, NOW) >= 6);

        frozenUntilBothLinksAreDown();
        assertThat(admitted(a, 10) + admitted(b, 10)).as("four were left: two each").isEqualTo(4);
        thawedUntilBothLinksAreUp();

        Eventually.until("the second outage's four are in the shared count", Duration.ofSeconds(10), () -> counted() >= 10);
        assertThat(admittedThroughBoth(4)).isZero();
        assertThat(counted()).isEqualTo(10);
    }

    @Test
    void oneSlowAnswerIsNotAnOutageAndTheRequestItHeldIsCountedOnce() {
        // Beats far apart, so that while Redis is frozen only the one request goes unanswered.
        twoReplicas(Duration.ofMinutes(1));
        long outages = linkA.health().outages();
        assertThat(admittedThroughBoth(4)).isEqualTo(4);

        redis.freeze();
        // Unanswered within the budget: decided alone, on a's share of the six left.
        assertThat(decide(a)).isInstanceOf(Admitted.class);
        redis.thaw();

        // Redis ran the script once it woke, and answered: the request is in the count once, not written back again.
        Eventually.until("the slow script's answer", Duration.ofSeconds(10), () -> counted() == 5);
        assertThat(linkA.isUp()).as("one slow answer is not an outage").isTrue();
        assertThat(linkA.health().outages()).isEqualTo(outages);
        assertThat(admittedThroughBoth(10)).as("five were left").isEqualTo(5);
        assertThat(counted()).isEqualTo(10);
    }
}
