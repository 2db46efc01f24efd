package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.accounts.limits.RateLimits;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.accounts.spend.CallCost;
import dev.sluice.accounts.spend.SpendCounters;
import dev.sluice.accounts.spend.SpendRecorder;
import dev.sluice.accounts.spend.StoredSpend;
import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.config.GeneralSettings;
import dev.sluice.config.HealthCheckSettings;
import dev.sluice.config.Secret;
import dev.sluice.store.SpendRow;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.FakeTime;
import dev.sluice.vendors.Providers;
import dev.sluice.wire.ApiError;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Admission and accounting of model calls, on a fake clock. */
class AccessControlTest {
    private final FakeTime time = startedAt(Duration.ofSeconds(10));
    private final FakeClock clock = time.clock();
    private final SpendCounters counters = new SpendCounters(clock);
    private final List<SpendRow> rows = new ArrayList<>();

    /** Fake time already moved {@code sinceStart} past its start, so a minute's rate window begins part spent. */
    private static FakeTime startedAt(Duration sinceStart) {
        FakeTime time = new FakeTime();
        time.advance(sinceStart);
        return time;
    }

    private AccessControl access(SpendRecorder spend) {
        GeneralSettings general = new GeneralSettings(Optional.of(new Secret("sk-master")), 1024,
                new dev.sluice.config.StoreSettings(Optional.empty(), GeneralSettings.DEFAULT_STORE_PATH,
                        GeneralSettings.DEFAULT_KEY_COPY_LIFETIME),
                new dev.sluice.config.FallbackChecks(true, true), HealthCheckSettings.DEFAULTS,
                dev.sluice.config.ModelApiSettings.DEFAULTS, dev.sluice.config.AuthFailureSettings.DEFAULTS,
                dev.sluice.config.EdgeSettings.DEFAULTS, GeneralSettings.DEFAULT_DRAIN_TIMEOUT,
                dev.sluice.config.SpendLogSettings.DEFAULTS, dev.sluice.config.MetricsAccess.DEFAULTS);
        return new AccessControl(general, Optional.empty(), new RateLimits(clock),
                new AccessControl.Ledger(counters, new CallCost(new BundledModelCatalog()), spend),
                time.source(), java.util.Map::of);
    }

    private AccessControl access() {
        return access(row -> rows.add(row));
    }

    private static Caller.Keyed keyed(java.util.function.UnaryOperator<VirtualKey.Builder> settings) {
        VirtualKey.Builder key = VirtualKey.builder(VirtualKey.hash("sk-test-0001"), "sk-...0001", FakeClock.START);
        return new Caller.Keyed(settings.apply(key).build(), Optional.empty(), "sk-test-0001");
    }

    private static Deployment priced() throws Exception {
        return ConfigLoader.parse("""
                model_list:
                  - {model_name: g, litellm_params: {model: openai/m, api_base: "http://127.0.0.1:9/v1",
                     input_cost_per_token: 0.001, output_cost_per_token: 0.002}}
                """, Map.of(), Providers.knownPrefixes()).deployments().getFirst();
    }

    /** The ticket, or the refusal thrown: admission without a shared store decides at once. */
    private static CallTicket admit(AccessControl access, Caller caller, String group, String callId) {
        io.vertx.core.Future<CallTicket> admitted = access.admit(caller, CalledModel.of(group), callId, List.of(), () -> 0);
        assertThat(admitted.isComplete()).isTrue();
        if (admitted.failed()) {
            throw (RuntimeException) admitted.cause();
        }
        return admitted.result();
    }

    @Test
    void aBudgetAdmitsUntilItsSpendReachesItAndNotAfter() throws Exception {
        Caller.Keyed caller = keyed(key -> key.maxBudget(new BigDecimal("0.01")));
        AccessControl access = access();
        counters.seed(new Scope.Key(caller.keyHash()), StoredSpend.lifetime(0));

        // 5 prompt tokens at 0.001 and 2 completion tokens at 0.002: 0.009, just under the budget.
        CallTicket first = admit(access, caller, "g", "c1");
        assertThat(first.finish(new CallEnd("g", Optional.of(priced()), 5, 2, 200))).isEqualTo(0.009);
        CallTicket second = admit(access, caller, "g", "c2");
        assertThat(second.finish(new CallEnd("g", Optional.of(priced()), 1, 0, 200))).isEqualTo(0.001);

        assertThatThrownBy(() -> admit(access, caller, "g", "c3"))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.type()).isEqualTo("budget_exceeded");
                    assertThat(e.getMessage()).isEqualTo("Budget has been exceeded! Key=sk-...0001 Current cost: 0.01, Max budget: 0.01");
                });
        assertThat(rows).extracting(SpendRow::callId).containsExactly("c1", "c2");
        assertThat(rows.getFirst().cost()).isEqualByComparingTo("0.009");
    }

    @Test
    void callsInFlightHoldTheirEstimateSoParallelCallsOverrunABudgetByAtMostOne() throws Exception {
        Caller.Keyed caller = keyed(key -> key.maxBudget(new BigDecimal("0.01")).rpmLimit(3L));
        AccessControl access = access();
        counters.seed(new Scope.Key(caller.keyHash()), StoredSpend.lifetime(0));

        CallTicket first = access.admit(caller, CalledModel.of("g"), "c1", List.of(), () -> 0.006).result();
        CallTicket second = access.admit(caller, CalledModel.of("g"), "c2", List.of(), () -> 0.006).result(); // 0.006 held is below 0.01
        assertThat(second).isNotNull();
        // Nothing spent, and what the two hold reaches the budget: retry as they end, not over budget.
        assertThat(access.admit(caller, CalledModel.of("g"), "c3", List.of(), () -> 0.006).cause())
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.type()).isEqualTo("rate_limit_error");
                    assertThat(e.code()).isEqualTo("budget_held_by_calls_in_flight");
                    assertThat(e.headers()).containsEntry("Retry-After", "1");
                    assertThat(e.getMessage()).isEqualTo("Budget is held by calls in flight: Key=sk-...0001 Current cost: "
                            + "0.0, Max budget: 0.01, Reserved by calls in flight: 0.012. Retry after 1 s, as those calls end.");
                });

        // Ended at less than its estimate, the first call gives back the rest of what it held.
        first.finish(new CallEnd("g", Optional.of(priced()), 1, 0, 200)); // 0.001
        second.finish(CallEnd.unserved("g", 502));
        CallTicket third = access.admit(caller, CalledModel.of("g"), "c4", List.of(), () -> 0.006).result();
        assertThat(third).isNotNull();
        // The rate limit refuses the next call: it must give back what it held of the budget at once.
        assertThat(access.admit(caller, CalledModel.of("g"), "c5", List.of(), () -> 0.002).cause()).isInstanceOfSatisfying(ApiError.class,
                e -> assertThat(e.status()).isEqualTo(429));
        third.finish(CallEnd.unserved("g", 502));
        assertThat(counters.current(new Scope.Key(caller.keyHash()))).isEqualTo(0.001);
        time.advance(Duration.ofMinutes(1));
        CallTicket last = access.admit(caller, CalledModel.of("g"), "c6", List.of(), () -> 0.0089).result();
        assertThat(last).as("0.001 spent and nothing held: a call fits again").isNotNull();
    }

    @Test
    void aBudgetHeldByCallsInFlightIsA429UntilItsSpendReachesItThenA400() throws Exception {
        Caller.Keyed caller = keyed(key -> key.maxBudget(new BigDecimal("0.01")));
        AccessControl access = access();
        counters.seed(new Scope.Key(caller.keyHash()), StoredSpend.lifetime(0));

        CallTicket first = access.admit(caller, CalledModel.of("g"), "c1", List.of(), () -> 0.009).result();
        CallTicket second = access.admit(caller, CalledModel.of("g"), "c2", List.of(), () -> 0.002).result();
        // 0.009 spent, just under the budget, and 0.002 held: reached only by the hold.
        first.finish(new CallEnd("g", Optional.of(priced()), 5, 2, 200));
        assertThat(access.admit(caller, CalledModel.of("g"), "c3", List.of(), () -> 0.001).cause())
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.code()).isEqualTo("budget_held_by_calls_in_flight");
                });
        // 0.01 spent, exactly the budget, and nothing held: over budget.
        second.finish(new CallEnd("g", Optional.of(priced()), 1, 0, 200));
        assertThat(access.admit(caller, CalledModel.of("g"), "c4", List.of(), () -> 0.001).cause())
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.type()).isEqualTo("budget_exceeded");
                    assertThat(e.headers()).doesNotContainKey("Retry-After");
                });
    }

    @Test
    void aTicketIsFinishedOnceAndAnUnservedCallCostsNothing() throws Exception {
        Caller.Keyed caller = keyed(key -> key.maxParallelRequests(1));
        AccessControl access = access();
        CallTicket open = admit(access, caller, "g", "c1");
        assertThatThrownBy(() -> admit(access, caller, "g", "c2"))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.headers()).containsEntry("Retry-After", "1");
                });

        time.advance(Duration.ofMillis(250));
        assertThat(open.finish(CallEnd.unserved("g", 502))).isZero();
        assertThat(open.finish(new CallEnd("g", Optional.of(priced()), 5, 5, 200))).isEqualTo(-1);

        assertThat(admit(access, caller, "g", "c3")).isNotNull();
        assertThat(rows).hasSize(1);
        assertThat(rows.getFirst().status()).isEqualTo(502);
        assertThat(rows.getFirst().durationMs()).isEqualTo(250);
        assertThat(rows.getFirst().cost()).isEqualByComparingTo("0");
    }

    @Test
    void rpmAdmitsUpToItsLimitInAMinuteAndAgainInTheNext() {
        Caller.Keyed caller = keyed(key -> key.rpmLimit(2L));
        AccessControl access = access();
        admit(access, caller, "g", "c1");
        admit(access, caller, "g", "c2");

        assertThatThrownBy(() -> admit(access, caller, "g", "c3"))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.headers())
                        .containsEntry("Retry-After", "50").containsEntry("x-ratelimit-remaining-requests", "0"));
        time.advanceTo(Duration.ofSeconds(59).plusMillis(999));
        assertThatThrownBy(() -> admit(access, caller, "g", "c4")).isInstanceOf(ApiError.class);
        time.advanceTo(Duration.ofSeconds(60));
        assertThat(admit(access, caller, "g", "c5").headers()).containsEntry("x-ratelimit-remaining-requests", "1");
    }

    @Test
    void theMasterKeyAndOpenCallersAreNeitherLimitedNorCharged() throws Exception {
        AccessControl access = access();
        for (int i = 0; i < 5; i++) {
            CallTicket ticket = admit(access, Caller.ADMIN, "g", "c" + i);
            assertThat(ticket.headers()).isEmpty();
            ticket.finish(new CallEnd("g", Optional.of(priced()), 1, 1, 200));
        }
        assertThat(rows).hasSize(5).allSatisfy(row -> assertThat(row.accounts().keyHash()).isEmpty());
    }

    @Test
    void aFullSpendJournalRefusesCallsWithA503() {
        AccessControl access = access(new SpendRecorder() {
            @Override
            public boolean record(SpendRow row) {
                return false;
            }

            @Override
            public boolean accepting() {
                return false;
            }
        });

        assertThatThrownBy(() -> admit(access, Caller.ADMIN, "g", "c1"))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.code()).isEqualTo("spend_log_full");
                });
    }
}
