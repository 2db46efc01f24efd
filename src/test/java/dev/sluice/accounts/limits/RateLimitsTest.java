package dev.sluice.accounts.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.accounts.limits.Admission.Admitted;
import dev.sluice.accounts.limits.Admission.Refused;
import dev.sluice.accounts.limits.RateLimits.Usage;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RateLimitsTest {
    /** The start of a calendar minute. */
    static final Instant MINUTE = FakeClock.START;
    static final Instant NEXT_MINUTE = MINUTE.plusSeconds(60);
    static final Duration MS = Duration.ofMillis(1);
    static final Scope.Key KEY = new Scope.Key("k1");
    static final Scope.Team TEAM = new Scope.Team("t1");

    final FakeClock clock = new FakeClock();
    final RateLimits limits = new RateLimits(clock);

    static LimitSubject key(Limits limits) {
        return LimitSubject.key("k1", limits);
    }

    Admission admitAt(LimitSubject subject, Instant now) {
        clock.set(now);
        return limits.admit(subject, now);
    }

    static Permit permit(Admission admission) {
        assertThat(admission).isInstanceOf(Admitted.class);
        return ((Admitted) admission).permit();
    }

    static Refused refused(Admission admission) {
        assertThat(admission).isInstanceOf(Refused.class);
        return (Refused) admission;
    }

    // --- rpm ------------------------------------------------------------------------------------

    @Test
    void fiftyRequestsRacingAgainstRpmTenAdmitExactlyTen() throws Exception {
        LimitSubject subject = key(Limits.NONE.withRpm(10));

        List<Admission> outcomes = race(50, thread -> limits.admit(subject, MINUTE.plusSeconds(5)));

        assertThat(outcomes).filteredOn(Admitted.class::isInstance).hasSize(10);
        assertThat(outcomes).filteredOn(Refused.class::isInstance).hasSize(40)
                .allSatisfy(a -> assertThat(((Refused) a).kind()).isEqualTo(LimitKind.REQUESTS));
        assertThat(limits.usage(KEY, MINUTE.plusSeconds(5)).requests()).isEqualTo(10);
    }

    @Test
    void threadsHammeringOneKeyAdmitExactlyItsLimit() throws Exception {
        // A single race of fifty rarely collides inside the decision; tens of thousands of
        // attempts on one key do, and any lost count would admit more than the limit.
        LimitSubject subject = key(Limits.NONE.withRpm(10_000));
        Instant now = MINUTE.plusSeconds(5);

        List<Integer> admittedByThread = race(16, thread -> {
            int admitted = 0;
            for (int i = 0; i < 2_000; i++) {
                if (limits.admit(subject, now) instanceof Admitted) {
                    admitted++;
                }
            }
            return admitted;
        });

        assertThat(admittedByThread.stream().mapToInt(Integer::intValue).sum()).isEqualTo(10_000);
        assertThat(limits.usage(KEY, now).requests()).isEqualTo(10_000);
    }

    @Test
    void fiftyRequestsFromFiveKeysRacingAgainstTheirTeamsRpmTenAdmitExactlyTen() throws Exception {
        List<Admission> outcomes = race(50, thread -> limits.admit(
                LimitSubject.key("k" + thread % 5, Limits.NONE.withRpm(100)).withTeam("t1", Limits.NONE.withRpm(10)),
                MINUTE.plusSeconds(5)));

        assertThat(outcomes).filteredOn(Admitted.class::isInstance).hasSize(10);
        assertThat(limits.usage(TEAM, MINUTE.plusSeconds(5)).requests()).isEqualTo(10);
        long keyRequests = 0;
        for (int k = 0; k < 5; k++) {
            keyRequests += limits.usage(new Scope.Key("k" + k), MINUTE.plusSeconds(5)).requests();
        }
        assertThat(keyRequests).as("refused requests spend nothing of their keys' limits").isEqualTo(10);
    }

    @Test
    void theLastRequestOfTheLimitIsAdmittedAndTheNextRefused() {
        LimitSubject subject = key(Limits.NONE.withRpm(2));

        permit(admitAt(subject, MINUTE));
        Admission second = admitAt(subject, MINUTE.plusSeconds(1));
        Admission third = admitAt(subject, MINUTE.plusSeconds(2));

        assertThat(second.headers().get(RateLimitHeaders.REMAINING_REQUESTS)).contains("0");
        assertThat(refused(third).kind()).isEqualTo(LimitKind.REQUESTS);
        assertThat(refused(third).limit()).isEqualTo(2);
    }

    @Test
    void theMinuteStillRefusesOneMillisecondBeforeItEnds() {
        LimitSubject subject = key(Limits.NONE.withRpm(1));
        permit(admitAt(subject, MINUTE));

        Refused refused = refused(admitAt(subject, NEXT_MINUTE.minus(MS)));

        assertThat(refused.retryAfter()).isEqualTo(MS);
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
    }

    @Test
    void theCountStartsAgainExactlyAtTheNextMinute() {
        LimitSubject subject = key(Limits.NONE.withRpm(1));
        permit(admitAt(subject, NEXT_MINUTE.minus(MS)));

        Admission next = admitAt(subject, NEXT_MINUTE);

        assertThat(next).isInstanceOf(Admitted.class);
        assertThat(next.headers().get(RateLimitHeaders.RESET_REQUESTS)).contains("60");
    }

    @Test
    void minutesAreCalendarMinutesNotSixtySecondsFromTheFirstRequest() {
        LimitSubject subject = key(Limits.NONE.withRpm(1));
        permit(admitAt(subject, MINUTE.plusSeconds(50)));

        assertThat(admitAt(subject, MINUTE.plusSeconds(59))).isInstanceOf(Refused.class);
        assertThat(admitAt(subject, NEXT_MINUTE.plusSeconds(1))).isInstanceOf(Admitted.class);
    }

    @Test
    void anRpmRefusalAsksToRetryWhenTheMinuteEndsInLiteLlmsWords() {
        LimitSubject subject = key(Limits.NONE.withRpm(1));
        permit(admitAt(subject, MINUTE.plusSeconds(10)));

        Refused refused = refused(admitAt(subject, MINUTE.plusSeconds(45)));

        assertThat(refused.scope()).isEqualTo(KEY);
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(15));
        assertThat(refused.reason()).isEqualTo("Rate limit exceeded for api_key: k1. Limit type: requests. "
                + "Current limit: 1, Remaining: 0. Limit resets at: 2025-01-01 00:01:00 UTC");
        assertThat(refused.headers().values()).containsEntry(RateLimitHeaders.LIMIT_REQUESTS, "1")
                .containsEntry(RateLimitHeaders.REMAINING_REQUESTS, "0")
                .containsEntry(RateLimitHeaders.RESET_REQUESTS, "15");
    }

    @Test
    void anRpmLimitOfZeroAdmitsNothing() {
        assertThat(refused(admitAt(key(Limits.NONE.withRpm(0)), MINUTE)).kind()).isEqualTo(LimitKind.REQUESTS);
    }

    // --- tpm ------------------------------------------------------------------------------------

    @Test
    void tokensCountWhenTheCallEndsNotWhileItRuns() {
        LimitSubject subject = key(Limits.NONE.withTpm(100));
        permit(admitAt(subject, MINUTE));

        // The first call is still running: nothing is charged for it yet.
        assertThat(admitAt(subject, MINUTE.plusSeconds(1))).isInstanceOf(Admitted.class);
    }

    @Test
    void tokensJustBelowTheLimitStillAdmit() {
        LimitSubject subject = key(Limits.NONE.withTpm(100));
        permit(admitAt(subject, MINUTE)).release(99);

        Admission next = admitAt(subject, MINUTE.plusSeconds(1));

        assertThat(next).isInstanceOf(Admitted.class);
        assertThat(next.headers().values()).containsEntry(RateLimitHeaders.LIMIT_TOKENS, "100")
                .containsEntry(RateLimitHeaders.REMAINING_TOKENS, "1");
    }

    @Test
    void tokensReachingTheLimitRefuseUntilTheMinuteEnds() {
        LimitSubject subject = key(Limits.NONE.withTpm(100));
        permit(admitAt(subject, MINUTE)).release(60);
        permit(admitAt(subject, MINUTE.plusSeconds(1))).release(40);

        Refused refused = refused(admitAt(subject, MINUTE.plusSeconds(20)));

        assertThat(refused.kind()).isEqualTo(LimitKind.TOKENS);
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(40));
        assertThat(refused.headers().get(RateLimitHeaders.REMAINING_TOKENS)).contains("0");
        assertThat(refused.reason()).contains("Limit type: tokens. Current limit: 100, Remaining: 0.");
        assertThat(admitAt(subject, NEXT_MINUTE)).isInstanceOf(Admitted.class);
    }

    @Test
    void tokensCountInTheMinuteTheCallEnds() {
        LimitSubject subject = key(Limits.NONE.withTpm(100));
        Permit longCall = permit(admitAt(subject, MINUTE.plusSeconds(50)));

        clock.set(NEXT_MINUTE.plusSeconds(5));
        longCall.release(100);

        assertThat(limits.usage(KEY, NEXT_MINUTE.plusSeconds(5)).tokens()).isEqualTo(100);
        assertThat(admitAt(subject, NEXT_MINUTE.plusSeconds(6))).isInstanceOf(Refused.class);
    }

    // --- max_parallel_requests --------------------------------------------------------------------

    @Test
    void parallelRequestsAreHeldToTheLimitWhileTheyRun() throws Exception {
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(3));
        CountDownLatch holding = new CountDownLatch(1);
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch decided = new CountDownLatch(10);

        List<Admission> outcomes = race(10, thread -> {
            Admission admission = limits.admit(subject, MINUTE);
            decided.countDown();
            if (admission instanceof Admitted ok) {
                admitted.incrementAndGet();
                holding.await(); // the call runs until the test lets it end
                ok.permit().release(0);
            }
            return admission;
        }, () -> {
            decided.await(30, TimeUnit.SECONDS);
            assertThat(admitted).hasValue(3);
            assertThat(limits.usage(KEY, MINUTE).inFlight()).isEqualTo(3);
            holding.countDown();
        });

        assertThat(outcomes).filteredOn(Refused.class::isInstance).hasSize(7)
                .allSatisfy(a -> assertThat(((Refused) a).kind()).isEqualTo(LimitKind.PARALLEL));
        assertThat(limits.usage(KEY, MINUTE).inFlight()).isZero();
        assertThat(admitAt(subject, MINUTE.plusSeconds(1))).isInstanceOf(Admitted.class);
    }

    @Test
    void callsInFlightNeverExceedTheLimitUnderChurn() throws Exception {
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(3));
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();

        race(16, thread -> {
            for (int i = 0; i < 2_000; i++) {
                if (limits.admit(subject, MINUTE) instanceof Admitted ok) {
                    peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                    running.decrementAndGet();
                    ok.permit().release(1);
                }
            }
            return null;
        });

        assertThat(peak.get()).isBetween(1, 3);
        assertThat(limits.usage(KEY, MINUTE).inFlight()).isZero();
    }

    @Test
    void aParallelRefusalAsksToRetryInASecond() {
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(1));
        permit(admitAt(subject, MINUTE));

        Refused refused = refused(admitAt(subject, MINUTE.plusSeconds(1)));

        assertThat(refused.kind()).isEqualTo(LimitKind.PARALLEL);
        assertThat(refused.retryAfter()).isEqualTo(RateLimits.PARALLEL_RETRY_AFTER);
        assertThat(refused.reason()).isEqualTo("Rate limit exceeded for api_key: k1. Limit type: max_parallel_requests. "
                + "Current limit: 1, Remaining: 0.");
        assertThat(refused.headers().values()).containsEntry("x-ratelimit-api_key-limit-max_parallel_requests", "1")
                .containsEntry("x-ratelimit-api_key-remaining-max_parallel_requests", "0");
    }

    @Test
    void aPermitIsReleasedOnceHoweverOftenItIsReleased() {
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(1).withTpm(1000));
        Permit permit = permit(admitAt(subject, MINUTE));

        assertThat(permit.release(5)).isTrue();
        assertThat(permit.release(5)).isFalse();
        assertThat(permit.isReleased()).isTrue();

        assertThat(limits.usage(KEY, MINUTE)).isEqualTo(new Usage(1, 5, 0));
        // A second release must not have freed a place for two calls.
        permit(admitAt(subject, MINUTE.plusSeconds(1)));
        assertThat(admitAt(subject, MINUTE.plusSeconds(2))).isInstanceOf(Refused.class);
    }

    @Test
    void releasesRacingEachOtherCountOnce() throws Exception {
        LimitSubject subject = key(Limits.NONE.withMaxParallelRequests(5).withTpm(1_000_000));
        Permit permit = permit(admitAt(subject, MINUTE));

        List<Boolean> released = race(8, thread -> permit.release(10));

        assertThat(released).containsOnlyOnce(true);
        assertThat(limits.usage(KEY, MINUTE)).isEqualTo(new Usage(1, 10, 0));
    }

    @Test
    void aNegativeTokenCountIsRefusedAndLeavesThePermitHeld() {
        Permit permit = permit(admitAt(key(Limits.NONE.withMaxParallelRequests(1)), MINUTE));

        assertThatThrownBy(() -> permit.release(-1)).hasMessage("tokensUsed: -1 (expected: >= 0)");
        assertThat(permit.isReleased()).isFalse();
    }

    // --- several scopes ---------------------------------------------------------------------------

    @Test
    void aRequestRefusedByItsTeamSpendsNothingOfItsKey() {
        LimitSubject subject = key(Limits.NONE.withRpm(10).withMaxParallelRequests(10))
                .withTeam("t1", Limits.NONE.withRpm(1));
        permit(admitAt(subject, MINUTE));

        Refused refused = refused(admitAt(subject, MINUTE.plusSeconds(1)));

        assertThat(refused.scope()).isEqualTo(TEAM);
        assertThat(refused.reason()).startsWith("Rate limit exceeded for team: t1. Limit type: requests.");
        assertThat(limits.usage(KEY, MINUTE.plusSeconds(1))).isEqualTo(new Usage(1, 0, 1));
    }

    @Test
    void aKeysModelLimitHoldsOnlyForThatGroup() {
        LimitSubject gpt4o = key(Limits.NONE).withModel("gpt-4o", Limits.NONE.withRpm(1));
        LimitSubject mini = key(Limits.NONE).withModel("gpt-4o-mini", Limits.NONE.withRpm(1));
        permit(admitAt(gpt4o, MINUTE));

        Refused refused = refused(admitAt(gpt4o, MINUTE.plusSeconds(1)));

        assertThat(refused.scope()).isEqualTo(new Scope.KeyModel("k1", "gpt-4o"));
        assertThat(refused.reason()).startsWith("Rate limit exceeded for model_per_key: k1:gpt-4o.");
        assertThat(admitAt(mini, MINUTE.plusSeconds(1))).isInstanceOf(Admitted.class);
    }

    @Test
    void aKeysModelTokenLimitCountsOnlyThatGroupsTokens() {
        LimitSubject gpt4o = key(Limits.NONE.withTpm(1000)).withModel("gpt-4o", Limits.NONE.withTpm(50));
        LimitSubject mini = key(Limits.NONE.withTpm(1000)).withModel("gpt-4o-mini", Limits.NONE.withTpm(50));
        permit(admitAt(mini, MINUTE)).release(50);

        assertThat(admitAt(gpt4o, MINUTE.plusSeconds(1))).isInstanceOf(Admitted.class);
        assertThat(refused(admitAt(mini, MINUTE.plusSeconds(2))).scope())
                .isEqualTo(new Scope.KeyModel("k1", "gpt-4o-mini"));
    }

    @Test
    void theRefusalReportedIsTheOneThatWaitsLongest() {
        LimitSubject subject = key(Limits.NONE.withRpm(1).withMaxParallelRequests(1));
        permit(admitAt(subject, MINUTE));

        // 50 s until the minute ends outlasts the parallel limit's 1 s.
        assertThat(refused(admitAt(subject, MINUTE.plusSeconds(10))).kind()).isEqualTo(LimitKind.REQUESTS);
        // Half a second before the minute ends, the parallel limit is the longer wait.
        assertThat(refused(admitAt(subject, NEXT_MINUTE.minusMillis(500))).kind()).isEqualTo(LimitKind.PARALLEL);
    }

    @Test
    void theOpenAiHeadersDescribeTheTightestScope() {
        LimitSubject subject = key(Limits.NONE.withRpm(10).withTpm(1000)).withTeam("t1", Limits.NONE.withRpm(5));

        Admission admission = admitAt(subject, MINUTE.plusSeconds(59).plusMillis(500));

        assertThat(admission.headers().values()).containsExactly(
                Map.entry("x-ratelimit-limit-requests", "5"),
                Map.entry("x-ratelimit-remaining-requests", "4"),
                Map.entry("x-ratelimit-reset-requests", "1"),
                Map.entry("x-ratelimit-limit-tokens", "1000"),
                Map.entry("x-ratelimit-remaining-tokens", "1000"),
                Map.entry("x-ratelimit-reset-tokens", "1"),
                Map.entry("x-ratelimit-api_key-limit-requests", "10"),
                Map.entry("x-ratelimit-api_key-remaining-requests", "9"),
                Map.entry("x-ratelimit-api_key-limit-tokens", "1000"),
                Map.entry("x-ratelimit-api_key-remaining-tokens", "1000"),
                Map.entry("x-ratelimit-team-limit-requests", "5"),
                Map.entry("x-ratelimit-team-remaining-requests", "4"));
    }

    @Test
    void aRequestWithoutLimitsIsAdmittedWithoutHeadersOrCounts() {
        Admission admission = admitAt(key(Limits.NONE).withTeam("t1", Limits.NONE), MINUTE);

        assertThat(admission.headers()).isEqualTo(RateLimitHeaders.NONE);
        assertThat(permit(admission).release(100)).isTrue();
        assertThat(limits.usage(KEY, MINUTE)).isEqualTo(Usage.NONE);
    }

    @Test
    void aForgottenScopeStartsFromZero() {
        LimitSubject subject = key(Limits.NONE.withRpm(1));
        permit(admitAt(subject, MINUTE));

        limits.forget(KEY);

        assertThat(admitAt(subject, MINUTE.plusSeconds(1))).isInstanceOf(Admitted.class);
    }

    @Test
    void aNegativeLimitIsRefusedNamingTheField() {
        assertThatThrownBy(() -> Limits.NONE.withRpm(-1)).hasMessage("rpm_limit: -1 (expected: >= 0)");
        assertThatThrownBy(() -> Limits.NONE.withTpm(-2)).hasMessage("tpm_limit: -2 (expected: >= 0)");
        assertThatThrownBy(() -> Limits.NONE.withMaxParallelRequests(-3))
                .hasMessage("max_parallel_requests: -3 (expected: >= 0)");
    }

    // --- racing threads ---------------------------------------------------------------------------

    interface Task<T> {
        T run(int thread) throws Exception;
    }

    interface WhileRunning {
        void run() throws Exception;
    }

    static <T> List<T> race(int threads, Task<T> task) throws Exception {
        return race(threads, task, () -> {});
    }

    /** Runs {@code task} on {@code threads} threads released at once; {@code whileRunning} runs on the test's thread meanwhile. */
    static <T> List<T> race(int threads, Task<T> task, WhileRunning whileRunning) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    return task.run(thread);
                }));
            }
            start.countDown();
            whileRunning.run();
            List<T> results = new ArrayList<>();
            for (Future<T> f : done) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
