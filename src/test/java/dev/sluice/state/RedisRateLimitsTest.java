package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.limits.Admission;
import dev.sluice.accounts.limits.Admission.Admitted;
import dev.sluice.accounts.limits.Admission.Refused;
import dev.sluice.accounts.limits.LimitKind;
import dev.sluice.accounts.limits.LimitSubject;
import dev.sluice.accounts.limits.Limits;
import dev.sluice.accounts.limits.RateLimits;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.store.redis.LinkBreaker;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FailingOnceClock;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.FakeTime;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import dev.sluice.time.JobRestarts;
import dev.sluice.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two limiters on one Redis stand for two replicas: a key's limits hold across both, exactly,
 * whatever the concurrency; and a replica that cannot reach Redis decides on its own counts.
 * Against the local Redis, each test under a prefix of its own; time is a fake clock, which
 * the scripts take their minutes and leases from.
 */
class RedisRateLimitsTest {
    private static final Instant MINUTE = FakeClock.START;

    private final RedisReplicas replicas = new RedisReplicas();
    private final FakeClock clock = new FakeClock();

    @AfterEach
    void cleanUp() throws Exception {
        replicas.close();
    }

    private RedisRateLimits limiter() {
        return limiter(TestRedis.url());
    }

    private RedisRateLimits limiter(String url) {
        return replicas.store(url, link -> new RedisRateLimits(link, clock, replicas.jobs()));
    }

    private static Admission decide(RedisRateLimits limiter, LimitSubject subject, Instant now) {
        return awaited(limiter.check(subject, now));
    }

    private static Admission awaited(io.vertx.core.Future<Admission> decision) {
        try {
            return decision.await(5, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no decision within 5 s", e);
        }
    }

    private static LimitSubject key(Limits limits) {
        return LimitSubject.key("k1", limits);
    }

    @Test
    void sixtyRequestsRacingThroughTwoReplicasAgainstRpmTenAdmitExactlyTen() {
        RedisRateLimits a = limiter();
        RedisRateLimits b = limiter();
        LimitSubject subject = key(Limits.NONE.withRpm(10));
        Instant now = MINUTE.plusSeconds(5);

        List<io.vertx.core.Future<Admission>> sent = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            sent.add((i % 2 == 0 ? a : b).check(subject, now));
        }
        List<Admission> decided = sent.stream().map(RedisRateLimitsTest::awaited).toList();

        assertThat(decided).filteredOn(Admitted.class::isInstance).hasSize(10);
        assertThat(decided).filteredOn(Refused.class::isInstance).hasSize(50)
                .allSatisfy(refused -> assertThat(((Refused) refused).retryAfterSeconds()).isEqualTo(55));
        assertThat(a.decidedLocally() + b.decidedLocally()).isZero();
    }

    @Test
    void theSharedMinuteEndsAtTheNextWholeMinuteAndNotBefore() {
        RedisRateLimits a = limiter();
        RedisRateLimits b = limiter();
        LimitSubject subject = key(Limits.NONE.withRpm(1));

        assertThat(decide(a, subject, MINUTE.plusSeconds(30))).isInstanceOf(Admitted.class);
        Refused refused = (Refused) decide(b, subject, MINUTE.plusSeconds(59).plusMillis(999));
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        assertThat(refused.reason()).isEqualTo("Rate limit exceeded for api_key: k1. Limit type: requests. Current limit: 1, "
                + "Remaining: 0. Limit resets at: " + resetAt(MINUTE.plusSeconds(60)));
        assertThat(refused.headers().values()).containsEntry("x-ratelimit-remaining-requests", "0")
                .containsEntry("x-ratelimit-limit-requests", "1");
        assertThat(decide(b, subject, MINUTE.plusSeconds(60))).isInstanceOf(Admitted.class);
    }

    @Test
    void headersOfASharedAdmissionCountEveryReplicasRequests() {
        RedisRateLimits a = limiter();
        RedisRateLimits b = limiter();
        LimitSubject subject = key(Limits.NONE.withRpm(5));
        Instant now = MINUTE.plusSeconds(10);

        decide(a, subject, now);
        decide(a, subject, now);
        Admitted third = (Admitted) decide(b, subject, now);

        assertThat(third.headers().values())
                .containsEntry("x-ratelimit-limit-requests", "5")
                .containsEntry("x-ratelimit-remaining-requests", "2")
                .containsEntry("x-ratelimit-reset-requests", "50")
                .containsEntry("x-ratelimit-api_key-remaining-requests", "2");
    }

    @Test
    void tokensReleasedOnOneReplicaCountAgainstTheOthersTpm() {
        RedisRateLimits a = limiter();
        RedisRateLimits b = limiter();
        LimitSubject subject = key(Limits.NONE.withTpm(100));
        clock.set(MINUTE.plusSeconds(10));

        ((Admitted) decide(a, subject, clock.instant())).permit().release(99);
        Admitted stillUnder = awaitRemainingTokens(b, subject, clock.instant(), "1");
        stillUnder.permit().release(1);

        awaitRefused(a, subject, clock.instant(), LimitKind.TOKENS);
        // Tokens count in the minute their call ended in: the next one starts from zero.
        assertThat(decide(a, subject, MINUTE.plusSeconds(60))).isInstanceOf(Admitted.class);
    }

    @Test
    void parallelRequestsAreSharedAndAReleaseFreesThePlace() {
        RedisRateLimits a = limiter();
        RedisRateLimits b = limiter();
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(2));
        Instant now = MINUTE.plusSeconds(1);

        Admitted first = (Admitted) decide(a, subject, now);
        decide(b, subject, now);
        Refused third = (Refused) decide(a, subject, now);
        assertThat(third.kind()).isEqualTo(LimitKind.PARALLEL);
        assertThat(third.retryAfterSeconds()).isEqualTo(1);

        first.permit().release(0);
        awaitAdmitted(b, subject, now);
    }

    @Test
    void theCallsOfAReplicaThatStoppedRenewingStopCountingWhenTheirLeaseRunsOut() {
        RedisRateLimits crashed = limiter();
        RedisRateLimits b = limiter();
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(1));
        Instant now = MINUTE.plusSeconds(1);

        assertThat(decide(crashed, subject, now)).isInstanceOf(Admitted.class);
        crashed.close(); // no more renewals; its call is never released

        assertThat(decide(b, subject, now.plus(RedisRateLimits.LEASE).minusMillis(1)))
                .as("just inside the lease").isInstanceOf(Refused.class);
        assertThat(decide(b, subject, now.plus(RedisRateLimits.LEASE)))
                .as("the lease has run out").isInstanceOf(Admitted.class);
    }

    @Test
    void aRequestRefusedByItsTeamConsumesNothingOfItsKeyOnAnyReplica() {
        RedisRateLimits a = limiter();
        RedisRateLimits b = limiter();
        Instant now = MINUTE.plusSeconds(1);
        LimitSubject teamFull = LimitSubject.key("k1", Limits.NONE.withRpm(3)).withTeam("t1", Limits.NONE.withRpm(1));
        LimitSubject otherKey = LimitSubject.key("k2", Limits.NONE).withTeam("t1", Limits.NONE.withRpm(1));

        assertThat(decide(a, otherKey, now)).isInstanceOf(Admitted.class);
        Refused refused = (Refused) decide(b, teamFull, now);
        assertThat(refused.scope()).isEqualTo(new Scope.Team("t1"));

        LimitSubject keyOnly = LimitSubject.key("k1", Limits.NONE.withRpm(3));
        for (int i = 0; i < 3; i++) {
            assertThat(decide(i % 2 == 0 ? a : b, keyOnly, now)).as("request %d", i).isInstanceOf(Admitted.class);
        }
        assertThat(decide(a, keyOnly, now)).isInstanceOf(Refused.class);
    }

    @Test
    void withoutRedisEachReplicaDecidesOnItsOwnCountsAndNeverFails() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            RedisRateLimits a = limiter("redis://127.0.0.1:" + proxy.port());
            LimitSubject subject = key(Limits.NONE.withRpm(2));
            Instant now = MINUTE.plusSeconds(1);
            assertThat(decide(a, subject, now)).isInstanceOf(Admitted.class);
            assertThat(a.decidedLocally()).isZero();

            proxy.stop();
            // The link may take a moment to notice; either way every decision comes, and locally once it has.
            assertThat(decide(a, subject, now)).as("the one left of rpm 2").isInstanceOf(Admitted.class);
            assertThat(decide(a, subject, now)).as("nothing left, on this replica alone")
                    .isInstanceOfSatisfying(Refused.class, refused -> assertThat(refused.limit()).as("its share of what was left").isEqualTo(1));
            assertThat(a.decidedLocally()).isEqualTo(2);
        }
    }

    @Test
    void anUnansweringRedisIsWaitedForAFewTimesThenTakenForDownUntilItAnswersAgain() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            RedisLink link = replicas.link("redis://127.0.0.1:" + proxy.port());
            RedisRateLimits a = replicas.started(link, l -> new RedisRateLimits(l, clock, replicas.jobs()));
            LimitSubject subject = key(Limits.NONE.withRpm(100));
            Instant now = MINUTE.plusSeconds(1);
            assertThat(decide(a, subject, now)).isInstanceOf(Admitted.class);

            proxy.lag(Duration.ofSeconds(30)); // as a stopped (SIGSTOP) Redis: connections stay open, nothing answers
            long started = System.nanoTime();
            assertThat(decide(a, subject, now)).isInstanceOf(Admitted.class);
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            // Not before the budget ran out, and long before the 30 s lag: the upper end leaves a loaded
            // machine seconds of slack for the budget's timer and this thread to run.
            assertThat(tookMillis).as("decided once the budget ran out").isBetween(RedisReplicas.BUDGET.toMillis() - 5,
                    RedisReplicas.BUDGET.toMillis() + 3_000);
            int waited = 1;
            // A few unanswered calls in a row (these, and the link's own beats) take the link down.
            while (link.isUp()) {
                assertThat(decide(a, subject, now)).isInstanceOf(Admitted.class);
                waited++;
            }
            assertThat(waited).as("no more calls wait than open the breaker").isLessThanOrEqualTo(LinkBreaker.FAILURES_TO_OPEN);
            for (int i = 0; i < 10; i++) {
                io.vertx.core.Future<Admission> decision = a.check(subject, now);
                assertThat(decision.isComplete()).as("decided at once, without waiting on Redis").isTrue();
                assertThat(decision.result()).isInstanceOf(Admitted.class);
            }
            assertThat(a.decidedLocally()).isEqualTo(10 + waited);

            proxy.lag(Duration.ZERO);
            Eventually.until("the link reconnects once Redis answers", Duration.ofSeconds(10), link::isUp);
            String window = replicas.prefix() + "limits:api_key:k1:" + MINUTE.getEpochSecond() / 60;
            // The first request and the ten decided while the link was down, written back when Redis answered
            // again. (The slow ones are counted once their scripts' answers come through the lagging proxy:
            // RateLimitOutagesTest counts them exactly against a frozen Redis.)
            long decidedAlone = a.decidedLocally();
            Eventually.until("the outage's requests are in the shared counts", Duration.ofSeconds(5),
                    () -> Long.parseLong(java.util.Objects.requireNonNullElse(TestRedis.command("HGET", window, "r"), "0")) >= 11);
            decide(a, subject, now);
            assertThat(a.decidedLocally()).as("back on the shared counts").isEqualTo(decidedAlone);
        }
    }

    @Test
    void duringAnOutageAReplicaAdmitsItsShareAndWritesItBackWhenRedisReturns() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            RedisLink link = replicas.link("redis://127.0.0.1:" + proxy.port());
            Duration renew = Duration.ofMillis(100);
            RedisRateLimits a = replicas.started(link, l -> new RedisRateLimits(l, clock, replicas.jobs(),
                    Duration.ofSeconds(1), renew, Duration.ofHours(1)));
            RedisRateLimits b = replicas.store(TestRedis.url(), l -> new RedisRateLimits(l, clock, replicas.jobs(),
                    Duration.ofSeconds(1), renew, Duration.ofHours(1)));
            Eventually.until("each replica sees the other", Duration.ofSeconds(5),
                    () -> a.replicasSeen() == 2 && b.replicasSeen() == 2);
            LimitSubject subject = key(Limits.NONE.withRpm(10));
            Instant now = MINUTE.plusSeconds(1);

            proxy.stop();
            for (int i = 0; i < 5; i++) {
                assertThat(decide(a, subject, now)).as("request %d on its own", i).isInstanceOf(Admitted.class);
            }
            assertThat(decide(a, subject, now)).as("half of rpm 10, with two replicas alive").isInstanceOfSatisfying(
                    Refused.class, refused -> assertThat(refused.limit()).isEqualTo(5));

            proxy.resume();
            Eventually.until("a reconnects", Duration.ofSeconds(10), link::isUp);
            String window = replicas.prefix() + "limits:api_key:k1:" + MINUTE.getEpochSecond() / 60;
            Eventually.until("a's five requests are in the shared counts", Duration.ofSeconds(5),
                    () -> "5".equals(TestRedis.command("HGET", window, "r")));
            for (int i = 0; i < 5; i++) {
                assertThat(decide(b, subject, now)).as("b's request %d", i).isInstanceOf(Admitted.class);
            }
            assertThat(decide(b, subject, now)).as("the minute holds ten in all").isInstanceOf(Refused.class);
        }
    }

    @Test
    void aLongCallKeepsItsPlaceByRenewalsDueOnTheInjectedTimeAndLosesItOnlyWhenNoLongerRenewed() throws Exception {
        Duration lease = Duration.ofMillis(400);
        Duration renewEvery = Duration.ofMillis(100);
        FakeTime time = new FakeTime();
        Scheduler jobs = time.scheduler(new JobRestarts());
        RedisRateLimits a = replicas.store(TestRedis.url(), link -> new RedisRateLimits(link, time.clock(), jobs, lease,
                renewEvery, Duration.ofHours(1)));
        RedisRateLimits b = limiter();
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(1));
        Instant admitted = time.now();
        assertThat(decide(a, subject, admitted)).isInstanceOf(Admitted.class);
        long firstEnd = admitted.plus(lease).toEpochMilli();
        Eventually.until("the first lease written", Duration.ofSeconds(10), () -> latestLeaseEnd() == firstEnd);

        time.awaitWaiting(1);
        time.advance(renewEvery.minusNanos(1));
        time.awaitWaiting(1);
        assertThat(latestLeaseEnd()).as("a nanosecond before the first renewal is due").isEqualTo(firstEnd);
        time.advance(Duration.ofNanos(1));
        long renewedEnd = firstEnd + renewEvery.toMillis();
        Eventually.until("the renewal at 100 ms", Duration.ofSeconds(10), () -> latestLeaseEnd() == renewedEnd);
        assertThat(decide(b, subject, admitted.plus(lease).plusMillis(50))).as("renewed past its first lease")
                .isInstanceOf(Refused.class);

        time.awaitWaiting(1);
        a.close(); // renewals stop, as when a replica dies
        assertThat(decide(b, subject, Instant.ofEpochMilli(renewedEnd + 1))).as("no longer renewed").isInstanceOf(Admitted.class);
        jobs.close();
    }

    @Test
    void renewalsGoOnAfterOneThatRanOutOfMemory() {
        // A lease long enough to outlast the one-second wait before renewals resume.
        Duration lease = Duration.ofSeconds(3);
        FailingOnceClock aClock = FailingOnceClock.disarmed(clock);
        long restartsBefore = JobRestarts.process().of("limit-leases");
        RedisRateLimits a = replicas.store(TestRedis.url(), link -> new RedisRateLimits(link, aClock, replicas.jobs(), lease,
                Duration.ofMillis(100), Duration.ofHours(1)));
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(1));
        clock.set(MINUTE.plusSeconds(1));
        assertThat(decide(a, subject, clock.instant())).isInstanceOf(Admitted.class);

        aClock.arm(); // the next renewal reads the clock first, and dies of it
        Eventually.until("a renewal failed", Duration.ofSeconds(10), aClock::failed);
        clock.advance(lease.plusMillis(100));

        long renewedEnd = clock.millis() + lease.toMillis();
        Eventually.until("a renewal after the failure", Duration.ofSeconds(10), () -> latestLeaseEnd() >= renewedEnd);
        assertThat(JobRestarts.process().of("limit-leases")).isGreaterThan(restartsBefore);
    }

    @Test
    void aCallStillOpenWhenRedisForgotItsLeaseTakesItsPlaceAgainOnReconnect() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            RedisRateLimits a = limiter("redis://127.0.0.1:" + proxy.port());
            RedisRateLimits b = limiter();
            LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(1));
            clock.set(MINUTE.plusSeconds(1));
            assertThat(decide(a, subject, clock.instant())).isInstanceOf(Admitted.class);

            proxy.stop();
            TestRedis.deleteKeys(replicas.prefix()); // the lease is gone, as after a Redis restart
            assertThat(decide(b, subject, clock.instant())).as("while a is away and its lease lost").isInstanceOf(Admitted.class)
                    .satisfies(admitted -> ((Admitted) admitted).permit().release(0));
            proxy.resume();

            Eventually.until("a writes its open call's lease again", Duration.ofSeconds(5),
                    () -> decide(b, subject, clock.instant()) instanceof Refused);
        }
    }

    @Test
    void aRedisThatLostItsScriptsIsSentThemAgainAndStillDecides() {
        RedisRateLimits a = limiter();
        LimitSubject subject = key(Limits.NONE.withRpm(5));
        assertThat(decide(a, subject, MINUTE)).isInstanceOf(Admitted.class);

        TestRedis.command("SCRIPT", "FLUSH");

        Admitted second = (Admitted) decide(a, subject, MINUTE);
        assertThat(second.headers().values()).containsEntry("x-ratelimit-remaining-requests", "3");
        assertThat(a.decidedLocally()).isZero();
    }

    private static void awaitRefused(RedisRateLimits limiter, LimitSubject subject, Instant now, LimitKind kind) {
        // A release is sent without waiting for it: the next decision may run before it lands.
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < deadline) {
            Admission decided = decide(limiter, subject, now);
            if (decided instanceof Refused refused) {
                assertThat(refused.kind()).isEqualTo(kind);
                return;
            }
            ((Admitted) decided).permit().release(0);
        }
        throw new AssertionError("never refused on " + kind);
    }

    /** The first admission whose headers show {@code remaining} tokens (releases land a moment after they are sent). */
    private static Admitted awaitRemainingTokens(RedisRateLimits limiter, LimitSubject subject, Instant now, String remaining) {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < deadline) {
            Admitted admitted = (Admitted) decide(limiter, subject, now);
            if (remaining.equals(admitted.headers().values().get("x-ratelimit-remaining-tokens"))) {
                return admitted;
            }
            admitted.permit().release(0);
        }
        throw new AssertionError("never saw " + remaining + " tokens remaining");
    }

    private static void awaitAdmitted(RedisRateLimits limiter, LimitSubject subject, Instant now) {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < deadline) {
            if (decide(limiter, subject, now) instanceof Admitted) {
                return;
            }
        }
        throw new AssertionError("never admitted");
    }

    private static String resetAt(Instant at) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(java.time.ZoneOffset.UTC)
                .format(at);
    }

    /** The latest lease end of any call in flight under this test's prefix, from Redis's in-flight sets (0 when none). */
    private long latestLeaseEnd() {
        String script = """
                local latest = 0
                for _, key in ipairs(redis.call('KEYS', ARGV[1])) do
                  local top = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
                  if top[2] and tonumber(top[2]) > latest then latest = tonumber(top[2]) end
                end
                return latest""";
        return Long.parseLong(TestRedis.command("EVAL", script, "0", replicas.prefix() + "limits:*:inflight"));
    }
}
