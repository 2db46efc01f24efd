package dev.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.config.SluiceConfig;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.signals.InMemoryCooldownStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.vendors.Providers;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CooldownsTest {
    static final Instant T0 = FakeClock.START;
    static final Duration MS = Duration.ofMillis(1);

    final FakeClock clock = new FakeClock();
    final RecordingEvents events = new RecordingEvents(clock);
    final InMemoryCooldownStore store = new InMemoryCooldownStore();
    ModelGroup group;
    Cooldowns cooldowns;

    // --- the allowance and the window ---------------------------------------------------------

    @Test
    void failuresUpToAllowedFailsKeepTheDeploymentRoutable() throws Exception {
        load(entries(2), "");

        for (int i = 0; i < 3; i++) {
            assertThat(fail(0, FailureClass.SERVER)).isEmpty();
        }

        assertThat(cooldowns.isBenched(dep(0))).isFalse();
        assertThat(events.unstamped()).isEmpty();
    }

    @Test
    void theFailureAfterAllowedFailsBenchesForTheCooldownTime() throws Exception {
        load(entries(2), "");
        failTimes(0, FailureClass.SERVER, 3);

        assertThat(fail(0, FailureClass.SERVER)).contains(T0.plusSeconds(5));
        assertThat(cooldowns.isBenched(dep(0))).isTrue();
        assertThat(cooldowns.benchEnd(dep(0))).contains(T0.plusSeconds(5));
        assertThat(cooldowns.isBenched(dep(1))).isFalse();
        assertThat(events.unstamped()).containsExactly("bench chat/d0 server until @5000");
    }

    @Test
    void allowedFailsZeroBenchesOnTheFirstFailure() throws Exception {
        load(entries(2), "router_settings: {allowed_fails: 0}");

        assertThat(fail(0, FailureClass.TIMEOUT)).contains(T0.plusSeconds(5));
    }

    @Test
    void aClassWithoutAPolicyKeyUsesAllowedFails() throws Exception {
        load(entries(2), "router_settings: {allowed_fails: 1, allowed_fails_policy: {InternalServerErrorAllowedFails: 5}}");

        assertThat(fail(0, FailureClass.TRANSPORT)).isEmpty();
        assertThat(fail(0, FailureClass.TRANSPORT)).isPresent();
    }

    @Test
    void theLastFailureJustBeforeTheWindowEndsStillBenches() throws Exception {
        load(entries(2), "");
        failTimes(0, FailureClass.SERVER, 3);

        clock.advance(Cooldowns.FAILURE_WINDOW.minus(MS));

        assertThat(fail(0, FailureClass.SERVER)).isPresent();
    }

    @Test
    void aFailureOnceTheWindowHasEndedStartsCountingAgain() throws Exception {
        load(entries(2), "");
        failTimes(0, FailureClass.SERVER, 3);

        clock.advance(Cooldowns.FAILURE_WINDOW);

        assertThat(failTimes(0, FailureClass.SERVER, 3)).allMatch(Optional::isEmpty);
        assertThat(fail(0, FailureClass.SERVER)).isPresent();
    }

    @Test
    void failuresOfDifferentClassesAreCountedApart() throws Exception {
        load(entries(2), "");

        failTimes(0, FailureClass.SERVER, 3);
        failTimes(0, FailureClass.TIMEOUT, 3);
        failTimes(0, FailureClass.TRANSPORT, 3);

        assertThat(cooldowns.isBenched(dep(0))).isFalse();
    }

    @Test
    void failuresOfDifferentDeploymentsAreCountedApart() throws Exception {
        load(entries(2), "");

        failTimes(0, FailureClass.SERVER, 3);
        failTimes(1, FailureClass.SERVER, 3);

        assertThat(cooldowns.isBenched(dep(0))).isFalse();
        assertThat(cooldowns.isBenched(dep(1))).isFalse();
    }

    @Test
    void aBenchStartsTheCountAfresh() throws Exception {
        load(entries(2), "");
        failTimes(0, FailureClass.SERVER, 4);
        clock.advance(Duration.ofSeconds(5));

        assertThat(failTimes(0, FailureClass.SERVER, 3)).allMatch(Optional::isEmpty);
        assertThat(fail(0, FailureClass.SERVER)).contains(clock.instant().plusSeconds(5));
    }

    // --- classes that never count -------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(names = {"REJECTED", "CONTEXT_WINDOW", "CONTENT_POLICY", "GUARDRAIL"})
    void aRefusalOfTheRequestNeverBenches(FailureClass kind) throws Exception {
        load(entries(2), "router_settings: {allowed_fails: 2}");

        assertThat(failTimes(0, kind, 4)).allMatch(Optional::isEmpty);
        assertThat(cooldowns.isBenched(dep(0))).isFalse();
        assertThat(events.unstamped()).isEmpty();
    }

    @Test
    void aRefusalNeverBenchesEvenWithAPolicyOfZero() throws Exception {
        load(entries(2), "router_settings: {allowed_fails_policy: {BadRequestErrorAllowedFails: 0}}");

        assertThat(fail(0, FailureClass.REJECTED)).isEmpty();
    }

    // --- the bench's two sides ----------------------------------------------------------------

    @Test
    void aBenchHoldsUntilOneMillisecondBeforeItsEnd() throws Exception {
        load(entries(2), "");
        failTimes(0, FailureClass.SERVER, 4);

        clock.advance(Duration.ofSeconds(5).minus(MS));

        assertThat(cooldowns.isBenched(dep(0))).isTrue();
        assertThat(events.unstamped()).hasSize(1);
    }

    @Test
    void aBenchLapsesExactlyAtItsEnd() throws Exception {
        load(entries(2), "");
        failTimes(0, FailureClass.SERVER, 4);

        clock.advance(Duration.ofSeconds(5));

        assertThat(cooldowns.isBenched(dep(0))).isFalse();
        assertThat(cooldowns.benchEnd(dep(0))).isEmpty();
        assertThat(events.unstamped()).containsExactly("bench chat/d0 server until @5000", "unbench chat/d0");
    }

    @Test
    void theUnbenchIsAnnouncedOnce() throws Exception {
        load(entries(2), "");
        failTimes(0, FailureClass.SERVER, 4);
        clock.advance(Duration.ofSeconds(6));

        cooldowns.isBenched(dep(0));
        cooldowns.benchEnd(dep(0));
        cooldowns.isBenched(dep(0));

        assertThat(events.unstamped()).containsExactly("bench chat/d0 server until @5000", "unbench chat/d0");
    }

    @Test
    void theUnbenchIsAnnouncedOnceWhenManyThreadsFindTheLapse() throws Exception {
        load(entries(2), "");
        failTimes(0, FailureClass.SERVER, 4);
        clock.advance(Duration.ofSeconds(5));

        runTogether(8, () -> {
            for (int i = 0; i < 1000; i++) {
                cooldowns.isBenched(dep(0));
            }
        });

        assertThat(events.unstamped()).containsExactly("bench chat/d0 server until @5000", "unbench chat/d0");
    }

    @Test
    void aDeploymentNeverBenchedIsNeverAnnouncedAsUnbenched() throws Exception {
        load(entries(2), "");

        cooldowns.isBenched(dep(1));
        clock.advance(Duration.ofMinutes(1));
        cooldowns.isBenched(dep(1));

        assertThat(events.unstamped()).isEmpty();
    }

    @Test
    void aBenchSetElsewhereIsAnnouncedWhenItLapses() throws Exception {
        load(entries(2), "");
        store.bench("d1", T0.plusSeconds(3));

        assertThat(cooldowns.isBenched(dep(1))).isTrue();
        clock.advance(Duration.ofSeconds(3));
        assertThat(cooldowns.isBenched(dep(1))).isFalse();

        assertThat(events.unstamped()).containsExactly("unbench chat/d1");
    }

    @Test
    void aShorterBenchDoesNotCutARunningOne() throws Exception {
        load(entries(2), "");
        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(60))).contains(T0.plusSeconds(60));

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(2))).contains(T0.plusSeconds(60));
        assertThat(cooldowns.benchEnd(dep(0))).contains(T0.plusSeconds(60));
    }

    // --- rate limits --------------------------------------------------------------------------

    @Test
    void aRateLimitWithoutRetryAfterBenchesAtOnceForTheCooldownTime() throws Exception {
        load(entries(2), "router_settings: {cooldown_time: 7}");

        assertThat(fail(0, FailureClass.RATE_LIMITED)).contains(T0.plusSeconds(7));
        assertThat(events.unstamped()).containsExactly("bench chat/d0 rate_limited until @7000");
    }

    @Test
    void aLongerRetryAfterThanTheCooldownTimeSetsTheBench() throws Exception {
        load(entries(2), "router_settings: {cooldown_time: 7}");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(30))).contains(T0.plusSeconds(30));
    }

    @Test
    void aShorterRetryAfterThanTheCooldownTimeSetsTheBench() throws Exception {
        load(entries(2), "router_settings: {cooldown_time: 7}");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(2))).contains(T0.plusSeconds(2));
    }

    @Test
    void aRetryAfterOfAnHourIsKept() throws Exception {
        load(entries(2), "");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Cooldowns.LONGEST_RETRY_AFTER_BENCH))
                .contains(T0.plus(Duration.ofHours(1)));
    }

    @Test
    void aRetryAfterBeyondAnHourIsCutToAnHour() throws Exception {
        load(entries(2), "");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofHours(1).plusSeconds(1)))
                .contains(T0.plus(Duration.ofHours(1)));
    }

    @Test
    void aRetryAfterOfZeroStillBenchesForASecond() throws Exception {
        load(entries(2), "");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ZERO)).contains(T0.plusSeconds(1));
    }

    @Test
    void aRetryAfterOnAnotherClassDoesNotSetTheBench() throws Exception {
        load(entries(2), "router_settings: {allowed_fails: 0}");

        assertThat(fail(0, FailureClass.SERVER, Duration.ofSeconds(30))).contains(T0.plusSeconds(5));
    }

    @Test
    void aRouterRateLimitPolicyMakesRateLimitsCount() throws Exception {
        load(entries(2), "router_settings: {allowed_fails_policy: {RateLimitErrorAllowedFails: 1}}");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(30))).isEmpty();
        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(30))).contains(T0.plusSeconds(30));
    }

    @Test
    void aDeploymentRateLimitPolicyMakesRateLimitsCount() throws Exception {
        load(List.of(entry(0, "", "allowed_fails_policy: {RateLimitErrorAllowedFails: 2}"), entry(1, "", "")), "");

        assertThat(failTimes(0, FailureClass.RATE_LIMITED, 2)).allMatch(Optional::isEmpty);
        assertThat(fail(0, FailureClass.RATE_LIMITED)).contains(T0.plusSeconds(5));
        assertThat(fail(1, FailureClass.RATE_LIMITED)).contains(T0.plusSeconds(5));
    }

    // --- auth and not found -------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(names = {"AUTH", "NOT_FOUND"})
    void aWrongKeyOrAMissingModelBenchesAtOnce(FailureClass kind) throws Exception {
        load(entries(2), "");

        assertThat(fail(0, kind)).contains(T0.plusSeconds(5));
        assertThat(events.unstamped()).containsExactly("bench chat/d0 " + kind.wireName() + " until @5000");
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTH", "NOT_FOUND"})
    void aWrongKeyOrAMissingModelCountsWhenAllowedFailsIsWritten(FailureClass kind) throws Exception {
        load(entries(2), "router_settings: {allowed_fails: 2}");

        assertThat(failTimes(0, kind, 2)).allMatch(Optional::isEmpty);
        assertThat(fail(0, kind)).isPresent();
    }

    @Test
    void allowedFailsWrittenUnderLitellmSettingsAlsoMakesAuthCount() throws Exception {
        load(entries(2), "litellm_settings: {allowed_fails: 1}");

        assertThat(fail(0, FailureClass.AUTH)).isEmpty();
        assertThat(fail(0, FailureClass.AUTH)).isPresent();
    }

    @Test
    void allowedFailsWrittenAsItsDefaultStillMakesAuthCount() throws Exception {
        load(entries(2), "router_settings: {allowed_fails: 3}");

        assertThat(failTimes(0, FailureClass.AUTH, 3)).allMatch(Optional::isEmpty);
        assertThat(fail(0, FailureClass.AUTH)).isPresent();
    }

    @Test
    void aRouterAuthPolicyMakesAuthFailuresCount() throws Exception {
        load(entries(2), "router_settings: {allowed_fails_policy: {AuthenticationErrorAllowedFails: 1}}");

        assertThat(fail(0, FailureClass.AUTH)).isEmpty();
        assertThat(fail(0, FailureClass.AUTH)).isPresent();
        // The policy for auth says nothing about 404s.
        assertThat(fail(1, FailureClass.NOT_FOUND)).isPresent();
    }

    @Test
    void aDeploymentNotFoundPolicyMakesNotFoundCount() throws Exception {
        load(List.of(entry(0, "", "allowed_fails_policy: {NotFoundErrorAllowedFails: 1}"), entry(1, "", "")), "");

        assertThat(fail(0, FailureClass.NOT_FOUND)).isEmpty();
        assertThat(fail(0, FailureClass.NOT_FOUND)).isPresent();
        assertThat(fail(1, FailureClass.NOT_FOUND)).isPresent();
    }

    // --- per-deployment settings beat the router's --------------------------------------------

    @Test
    void aDeploymentCooldownTimeBeatsTheRouters() throws Exception {
        load(List.of(entry(0, "cooldown_time: 30", ""), entry(1, "", "")),
                "router_settings: {allowed_fails: 0, cooldown_time: 10}");

        assertThat(fail(0, FailureClass.SERVER)).contains(T0.plusSeconds(30));
        assertThat(fail(1, FailureClass.SERVER)).contains(T0.plusSeconds(10));
    }

    @Test
    void aModelInfoCooldownTimeBeatsTheRouters() throws Exception {
        load(List.of(entry(0, "", "cooldown_time: 2.5"), entry(1, "", "")), "router_settings: {allowed_fails: 0}");

        assertThat(fail(0, FailureClass.SERVER)).contains(T0.plusMillis(2500));
    }

    @Test
    void aLitellmParamsCooldownTimeBeatsTheModelInfoOne() throws Exception {
        load(List.of(entry(0, "cooldown_time: 3", "cooldown_time: 20"), entry(1, "", "")),
                "router_settings: {allowed_fails: 0}");

        assertThat(fail(0, FailureClass.SERVER)).contains(T0.plusSeconds(3));
    }

    @Test
    void aDeploymentPolicyBeatsTheRouters() throws Exception {
        load(List.of(entry(0, "", "allowed_fails_policy: {InternalServerErrorAllowedFails: 1}"), entry(1, "", "")),
                "router_settings: {allowed_fails_policy: {InternalServerErrorAllowedFails: 5}}");

        assertThat(fail(0, FailureClass.SERVER)).isEmpty();
        assertThat(fail(0, FailureClass.SERVER)).isPresent();
        assertThat(failTimes(1, FailureClass.SERVER, 5)).allMatch(Optional::isEmpty);
        assertThat(fail(1, FailureClass.SERVER)).isPresent();
    }

    @Test
    void aRouterPolicyBeatsAllowedFails() throws Exception {
        load(entries(2), "router_settings: {allowed_fails: 5, allowed_fails_policy: {TimeoutErrorAllowedFails: 1}}");

        assertThat(fail(0, FailureClass.TIMEOUT)).isEmpty();
        assertThat(fail(0, FailureClass.TIMEOUT)).isPresent();
    }

    // --- never bench --------------------------------------------------------------------------

    @Test
    void disableCooldownsNeverBenches() throws Exception {
        load(entries(2), "router_settings: {disable_cooldowns: true, allowed_fails: 0}");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(30))).isEmpty();
        assertThat(fail(0, FailureClass.AUTH)).isEmpty();
        assertThat(failTimes(0, FailureClass.SERVER, 10)).allMatch(Optional::isEmpty);
        assertThat(cooldowns.isBenched(dep(0))).isFalse();
        assertThat(events.unstamped()).isEmpty();
    }

    @Test
    void aRouterCooldownTimeOfZeroNeverBenches() throws Exception {
        load(entries(2), "router_settings: {cooldown_time: 0}");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(30))).isEmpty();
        assertThat(failTimes(0, FailureClass.SERVER, 10)).allMatch(Optional::isEmpty);
        assertThat(events.unstamped()).isEmpty();
    }

    @Test
    void aDeploymentCooldownTimeOfZeroNeverBenchesThatDeployment() throws Exception {
        load(List.of(entry(0, "cooldown_time: 0", ""), entry(1, "", "")), "");

        assertThat(fail(0, FailureClass.RATE_LIMITED)).isEmpty();
        assertThat(fail(1, FailureClass.RATE_LIMITED)).isPresent();
    }

    @Test
    void aDeploymentCooldownTimeBenchesWhenTheRoutersIsZero() throws Exception {
        load(List.of(entry(0, "cooldown_time: 4", ""), entry(1, "", "")), "router_settings: {cooldown_time: 0}");

        assertThat(fail(0, FailureClass.RATE_LIMITED)).contains(T0.plusSeconds(4));
        assertThat(fail(1, FailureClass.RATE_LIMITED)).isEmpty();
    }

    @Test
    void theOnlyDeploymentOfAGroupIsNeverBenched() throws Exception {
        load(entries(1), "router_settings: {allowed_fails: 0}");

        assertThat(fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(30))).isEmpty();
        assertThat(fail(0, FailureClass.AUTH)).isEmpty();
        assertThat(fail(0, FailureClass.NOT_FOUND)).isEmpty();
        assertThat(failTimes(0, FailureClass.SERVER, 10)).allMatch(Optional::isEmpty);
        assertThat(cooldowns.isBenched(dep(0))).isFalse();
        assertThat(events.unstamped()).isEmpty();
    }

    // --- benches a health probe sets (health_check_bench_unhealthy) ----------------------------

    @Test
    void aFailedProbeBenchesUntilTheEndItAsksForWithoutAnAllowance() throws Exception {
        load(entries(2), "router_settings: {allowed_fails: 5}");

        assertThat(cooldowns.benchUntil(group, dep(0), failure(FailureClass.SERVER, Optional.empty()), T0.plusSeconds(90)))
                .contains(T0.plusSeconds(90));

        assertThat(cooldowns.benchEnd(dep(0))).contains(T0.plusSeconds(90));
        assertThat(events.unstamped()).containsExactly("bench chat/d0 server until @90000");
    }

    @Test
    void liftEndsTheProbesBenchAtOnceAndAnnouncesIt() throws Exception {
        load(entries(2), "");
        Instant end = cooldowns.benchUntil(group, dep(0), failure(FailureClass.TRANSPORT, Optional.empty()), T0.plusSeconds(90))
                .orElseThrow();
        clock.advance(Duration.ofSeconds(1));

        assertThat(cooldowns.lift(dep(0), end)).isTrue();

        assertThat(cooldowns.isBenched(dep(0))).isFalse();
        assertThat(events.unstamped()).containsExactly("bench chat/d0 transport until @90000", "unbench chat/d0");
        cooldowns.benchEnd(dep(0));
        assertThat(events.unstamped()).as("the lapse is announced once").hasSize(2);
    }

    @Test
    void liftLeavesABenchThatTrafficLengthenedSince() throws Exception {
        load(entries(2), "");
        Instant end = cooldowns.benchUntil(group, dep(0), failure(FailureClass.SERVER, Optional.empty()), T0.plusSeconds(20))
                .orElseThrow();
        fail(0, FailureClass.RATE_LIMITED, Duration.ofSeconds(60));

        assertThat(cooldowns.lift(dep(0), end)).isFalse();

        assertThat(cooldowns.benchEnd(dep(0))).contains(T0.plusSeconds(60));
    }

    @Test
    void liftOfABenchThatAlreadyLapsedDoesNothing() throws Exception {
        load(entries(2), "");
        Instant end = cooldowns.benchUntil(group, dep(0), failure(FailureClass.SERVER, Optional.empty()), T0.plusSeconds(20))
                .orElseThrow();
        clock.advance(Duration.ofSeconds(20));

        assertThat(cooldowns.lift(dep(0), end)).isFalse();
    }

    @Test
    void aFailedProbeKeepsTheGuardsOfEveryBench() throws Exception {
        Failure server = failure(FailureClass.SERVER, Optional.empty());
        load(entries(1), "");
        assertThat(cooldowns.benchUntil(group, dep(0), server, T0.plusSeconds(20))).as("a group's only deployment").isEmpty();

        load(entries(2), "router_settings: {disable_cooldowns: true}");
        assertThat(cooldowns.benchUntil(group, dep(0), server, T0.plusSeconds(20))).as("disable_cooldowns").isEmpty();

        load(entries(2), "");
        assertThat(cooldowns.benchUntil(group, dep(0), failure(FailureClass.REJECTED, Optional.empty()), T0.plusSeconds(20)))
                .as("a 400: the backend answered").isEmpty();
        assertThat(cooldowns.isBenched(dep(0))).isFalse();
        assertThat(events.unstamped()).isEmpty();
    }

    @Test
    void aProbeThatFailsAgainPushesOutTheBenchWithoutANewOne() throws Exception {
        load(entries(2), "");
        Failure server = failure(FailureClass.SERVER, Optional.empty());
        cooldowns.benchUntil(group, dep(0), server, T0.plusSeconds(20));
        clock.advance(Duration.ofSeconds(10));

        assertThat(cooldowns.benchUntil(group, dep(0), server, T0.plusSeconds(40))).contains(T0.plusSeconds(40));

        assertThat(cooldowns.benchEnd(dep(0))).contains(T0.plusSeconds(40));
        assertThat(events.unstamped()).as("one outage, one bench").containsExactly("bench chat/d0 server until @20000");
    }

    @Test
    void aDeploymentThatOptsOutOfBenchingIsNotBenchedByItsProbe() throws Exception {
        load(List.of(entry(0, "cooldown_time: 0", ""), entry(1, "", "")), "");

        assertThat(cooldowns.benchUntil(group, dep(0), failure(FailureClass.SERVER, Optional.empty()), T0.plusSeconds(20)))
                .isEmpty();
        assertThat(cooldowns.isBenched(dep(0))).isFalse();
    }

    // --- helpers ------------------------------------------------------------------------------

    /** Deployment {@code d<i>} of group {@code chat}, with extra litellm_params and model_info text. */
    private static String entry(int i, String params, String info) {
        return """
                  - model_name: chat
                    litellm_params: {model: openai/m%d, api_base: 'http://127.0.0.1:9/v1'%s}
                    model_info: {id: d%d%s}
                """.formatted(i, params.isEmpty() ? "" : ", " + params, i, info.isEmpty() ? "" : ", " + info);
    }

    private static List<String> entries(int count) {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            entries.add(entry(i, "", ""));
        }
        return entries;
    }

    private void load(List<String> entries, String sections) throws Exception {
        String yaml = "model_list:\n" + String.join("", entries) + sections + "\n";
        SluiceConfig config = ConfigLoader.parse(yaml, Map.of(), Providers.knownPrefixes());
        group = ModelGroups.of(config.deployments()).find("chat").orElseThrow();
        cooldowns = new Cooldowns(config.router(), store, clock, events);
    }

    private Deployment dep(int i) {
        return group.deployments().get(i);
    }

    private Optional<Instant> fail(int i, FailureClass kind) {
        return cooldowns.recordFailure(group, dep(i), failure(kind, Optional.empty()));
    }

    private Optional<Instant> fail(int i, FailureClass kind, Duration retryAfter) {
        return cooldowns.recordFailure(group, dep(i), failure(kind, Optional.of(retryAfter)));
    }

    private List<Optional<Instant>> failTimes(int i, FailureClass kind, int times) {
        List<Optional<Instant>> results = new ArrayList<>();
        for (int n = 0; n < times; n++) {
            results.add(fail(i, kind));
        }
        return results;
    }

    private static Failure failure(FailureClass kind, Optional<Duration> retryAfter) {
        int status = switch (kind) {
            case RATE_LIMITED -> 429;
            case SERVER -> 500;
            case AUTH -> 401;
            case NOT_FOUND -> 404;
            case REJECTED, CONTEXT_WINDOW, CONTENT_POLICY -> 400;
            case TRANSPORT, TIMEOUT, GUARDRAIL -> 0;
        };
        return new Failure(kind, status, Buffer.buffer(), retryAfter, status == 0 ? kind.wireName() : "");
    }

    private static void runTogether(int threads, Runnable task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    task.run();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
