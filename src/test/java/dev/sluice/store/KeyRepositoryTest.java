package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.dollars;
import static dev.sluice.store.StoreFixtures.hash;
import static dev.sluice.store.StoreFixtures.json;
import static dev.sluice.store.StoreFixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.StoreTest;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/** sluice_keys through {@link KeyRepository}, on both engines. */
class KeyRepositoryTest {
    static final Duration MICRO = Duration.ofNanos(1_000);

    /** A key with every field set, the JSON ones nested, to see each survive a round trip. */
    static VirtualKey everyField() {
        return VirtualKey.builder(hash("sk-every-field-1234"), "sk-...1234", T0.plusNanos(123_456_789))
                .keyAlias("billing-prod")
                .teamId("team-a")
                .userId("user-1")
                .models(List.of("gpt-4o", "claude-3-5-sonnet", "gpt-4o-mini"))
                .maxBudget(new BigDecimal("25.5"))
                .budgetDuration("30d")
                .budgetResetAt(T0.plus(Duration.ofDays(30)))
                .spend(new BigDecimal("0.000000000001"))
                .rpmLimit(100L)
                .tpmLimit(100_000L)
                .maxParallelRequests(4)
                .modelMaxBudget(Map.of(
                        "gpt-4o", ModelBudget.of(new BigDecimal("0.0005"), "1d"),
                        "gpt-4o-mini", ModelBudget.of(new BigDecimal("1234567.123456789012"), null)))
                .modelRpmLimit(Map.of("gpt-4o", 10L))
                .modelTpmLimit(Map.of("gpt-4o", 20_000L, "gpt-4o-mini", 0L))
                .aliases(Map.of("gpt-4", "gpt-4o"))
                .metadata(json("""
                        {"owner": "billing", "tags": ["prod", "eu"], "nested": {"n": 1.5, "ok": true, "none": null}}"""))
                .expiresAt(T0.plus(Duration.ofDays(365)))
                .blocked(true)
                .build();
    }

    @StoreTest
    void aKeyReadsBackAsItWasWrittenFieldForField(Database database) {
        KeyRepository keys = new KeyRepository(database);
        VirtualKey key = everyField();

        keys.insert(key);

        VirtualKey read = keys.findByHash(key.tokenHash()).orElseThrow();
        assertThat(read).isEqualTo(key);
        assertThat(read.metadata().at("/tags/1").asText()).isEqualTo("eu");
        assertThat(read.modelLimits().modelMaxBudget().get("gpt-4o-mini").budgetLimit()).isEqualByComparingTo("1234567.123456789012");
        assertThat(read.createdAt()).isEqualTo(T0.plusNanos(123_456_000));
        assertThat(keys.findByAlias("billing-prod")).contains(key);
    }

    @StoreTest
    void aKeyWithNothingSetReadsBackEmpty(Database database) {
        KeyRepository keys = new KeyRepository(database);

        keys.insert(key("sk-bare"));

        VirtualKey read = keys.findByHash(hash("sk-bare")).orElseThrow();
        assertThat(read).isEqualTo(key("sk-bare"));
        assertThat(read.keyName()).isEqualTo("sk-...bare");
        assertThat(read.models()).isEmpty();
        assertThat(read.budget().maxBudget()).isEmpty();
        assertThat(read.limits().rpmLimit()).isEmpty();
        assertThat(read.limits().maxParallelRequests()).isEmpty();
        assertThat(read.budget().spend()).isEqualTo(Money.ZERO);
        assertThat(read.metadata().isEmpty()).isTrue();
        assertThat(read.blocked()).isFalse();
    }

    @StoreTest
    void anUnknownKeyIsNotFound(Database database) {
        KeyRepository keys = new KeyRepository(database);

        assertThat(keys.findByHash(hash("sk-nobody"))).isEmpty();
        assertThat(keys.findByAlias("nobody")).isEmpty();
    }

    @StoreTest
    void aHashOrAnAliasIsTakenOnce(Database database) {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-first").toBuilder().keyAlias("shared").build());

        assertThatThrownBy(() -> keys.insert(key("sk-first")))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.CONFLICT))
                .hasMessageStartingWith("insert key: ");
        assertThatThrownBy(() -> keys.insert(key("sk-second").toBuilder().keyAlias("shared").build()))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.CONFLICT));
        keys.insert(key("sk-third"));
        keys.insert(key("sk-fourth"));
        assertThat(keys.count(KeyFilter.ALL)).isEqualTo(3);
    }

    @StoreTest
    void updateWritesEverySettingButLeavesSpendAndCreationAlone(Database database) {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-upd"));
        keys.addSpend(hash("sk-upd"), new BigDecimal("1.25"));
        VirtualKey changed = everyField().toBuilder()
                .tokenHash(hash("sk-upd"))
                .spend(new BigDecimal("99"))
                .createdAt(T0.plusSeconds(999))
                .build();

        assertThat(keys.update(changed)).isTrue();

        VirtualKey read = keys.findByHash(hash("sk-upd")).orElseThrow();
        assertThat(read).isEqualTo(changed.toBuilder().spend(new BigDecimal("1.25")).createdAt(T0).build());
    }

    @StoreTest
    void updateCanClearWhatWasSet(Database database) {
        KeyRepository keys = new KeyRepository(database);
        VirtualKey full = everyField();
        keys.insert(full);
        VirtualKey cleared = key("sk-every-field-1234").toBuilder().keyName("sk-...1234").createdAt(full.createdAt()).build();

        keys.update(cleared);

        assertThat(keys.findByHash(full.tokenHash())).contains(cleared.toBuilder().spend(full.budget().spend()).build());
    }

    @StoreTest
    void updatingOrDeletingAnUnknownKeySaysSo(Database database) {
        KeyRepository keys = new KeyRepository(database);

        assertThat(keys.update(key("sk-ghost"))).isFalse();
        assertThat(keys.delete(hash("sk-ghost"))).isFalse();
        assertThat(keys.addSpend(hash("sk-ghost"), BigDecimal.ONE)).isFalse();
        assertThat(keys.resetSpend(hash("sk-ghost"), T0)).isFalse();
    }

    @StoreTest
    void aDeletedKeyIsGone(Database database) {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-gone"));
        keys.insert(key("sk-stays"));

        assertThat(keys.delete(hash("sk-gone"))).isTrue();

        assertThat(keys.findByHash(hash("sk-gone"))).isEmpty();
        assertThat(keys.findByHash(hash("sk-stays"))).isPresent();
    }

    @StoreTest
    void listingPagesThroughKeysOldestFirst(Database database) {
        KeyRepository keys = new KeyRepository(database);
        for (int i = 0; i < 7; i++) {
            keys.insert(key("sk-list-" + i).toBuilder().createdAt(T0.plusSeconds(i)).build());
        }

        assertThat(keys.list(Page.of(1, 3))).extracting(VirtualKey::keyName).containsExactly("sk-...st-0", "sk-...st-1", "sk-...st-2");
        assertThat(keys.list(Page.of(3, 3))).extracting(VirtualKey::keyName).containsExactly("sk-...st-6");
        assertThat(keys.list(Page.of(4, 3))).isEmpty();
        assertThat(keys.count(KeyFilter.ALL)).isEqualTo(7);
    }

    @StoreTest
    void listingFiltersByTeamAndUser(Database database) {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-a1").toBuilder().teamId("a").userId("u1").build());
        keys.insert(key("sk-a2").toBuilder().teamId("a").userId("u2").createdAt(T0.plusSeconds(1)).build());
        keys.insert(key("sk-b1").toBuilder().teamId("b").userId("u1").build());
        keys.insert(key("sk-none"));

        assertThat(keys.list(KeyFilter.team("a"), Page.of(1, 10))).extracting(VirtualKey::tokenHash)
                .containsExactly(hash("sk-a1"), hash("sk-a2"));
        assertThat(keys.list(KeyFilter.user("u1"), Page.of(1, 10))).extracting(VirtualKey::tokenHash)
                .containsExactlyInAnyOrder(hash("sk-a1"), hash("sk-b1"));
        assertThat(keys.list(new KeyFilter(Optional.of("a"), Optional.of("u2")), Page.of(1, 10)))
                .extracting(VirtualKey::tokenHash).containsExactly(hash("sk-a2"));
        assertThat(keys.count(KeyFilter.team("a"))).isEqualTo(2);
        assertThat(keys.count(KeyFilter.team("nobody"))).isZero();
    }

    @StoreTest
    void spendAddsUpExactly(Database database) {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-spend"));

        keys.addSpend(hash("sk-spend"), new BigDecimal("0.1"));
        keys.addSpend(hash("sk-spend"), new BigDecimal("0.2"));
        keys.addSpend(hash("sk-spend"), Money.of(0.000_002_5 * 1234));

        assertThat(keys.findByHash(hash("sk-spend")).orElseThrow().budget().spend()).isEqualTo(dollars("0.303085"));
    }

    @StoreTest
    void spendAddedFromEightThreadsAtOnceAllCounts(Database database) throws Exception {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-busy"));
        int threads = 8;
        int perThread = 50;

        StoreFixtures.concurrently(threads, thread -> {
            for (int i = 0; i < perThread; i++) {
                keys.addSpend(hash("sk-busy"), new BigDecimal("0.000123456789"));
            }
        });

        assertThat(keys.findByHash(hash("sk-busy")).orElseThrow().budget().spend())
                .isEqualTo(dollars("0.000123456789").multiply(BigDecimal.valueOf(threads * perThread)));
    }

    @StoreTest
    void aNegativeAmountIsRefusedBeforeTheDatabase(Database database) {
        KeyRepository keys = new KeyRepository(database);

        assertThatThrownBy(() -> keys.addSpend(hash("sk-x"), new BigDecimal("-0.01")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("amount: -0.01 (expected: >= 0)");
    }

    @StoreTest
    void aResetZeroesSpendAndMovesTheNextResetOnceEvenWhenRunTwice(Database database) {
        KeyRepository keys = new KeyRepository(database);
        Instant due = T0.plus(Duration.ofDays(1));
        Instant next = due.plus(Duration.ofDays(1));
        keys.insert(key("sk-reset").toBuilder().budgetDuration("1d").budgetResetAt(due).build());
        keys.addSpend(hash("sk-reset"), new BigDecimal("3"));

        assertThat(keys.resetSpend(hash("sk-reset"), next)).isTrue();
        keys.addSpend(hash("sk-reset"), new BigDecimal("0.5"));
        assertThat(keys.resetSpend(hash("sk-reset"), next)).isFalse();

        VirtualKey read = keys.findByHash(hash("sk-reset")).orElseThrow();
        assertThat(read.budget().spend()).isEqualTo(dollars("0.5"));
        assertThat(read.budget().budgetResetAt()).contains(next);
    }

    @StoreTest
    void aKeyWithoutAResetTimeCanBeReset(Database database) {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-first-reset").toBuilder().spend(new BigDecimal("2")).build());

        assertThat(keys.resetSpend(hash("sk-first-reset"), T0)).isTrue();

        assertThat(keys.findByHash(hash("sk-first-reset")).orElseThrow().budget().spend()).isEqualTo(Money.ZERO);
    }

    @StoreTest
    void aResetIsDueFromItsInstantOnSoonestFirst(Database database) {
        KeyRepository keys = new KeyRepository(database);
        Instant due = T0.plusSeconds(60);
        keys.insert(key("sk-later").toBuilder().budgetResetAt(due.plusSeconds(1)).build());
        keys.insert(key("sk-due").toBuilder().budgetResetAt(due).build());
        keys.insert(key("sk-early").toBuilder().budgetResetAt(due.minusSeconds(30)).build());
        keys.insert(key("sk-never"));

        assertThat(keys.dueForReset(due.minus(MICRO), 10)).extracting(VirtualKey::tokenHash).containsExactly(hash("sk-early"));
        assertThat(keys.dueForReset(due, 10)).extracting(VirtualKey::tokenHash).containsExactly(hash("sk-early"), hash("sk-due"));
        assertThat(keys.dueForReset(due, 1)).extracting(VirtualKey::tokenHash).containsExactly(hash("sk-early"));
        assertThat(keys.dueForReset(due.plusSeconds(1), 10)).hasSize(3);
    }

    @StoreTest
    void manyKeysListInOnePageInTheirOrder(Database database) {
        KeyRepository keys = new KeyRepository(database);
        List<VirtualKey> written = IntStream.range(0, 25)
                .mapToObj(i -> key("sk-many-" + i).toBuilder().createdAt(T0.plusMillis(i)).build())
                .toList();
        written.forEach(keys::insert);

        assertThat(keys.list(Page.of(1, 100))).containsExactlyElementsOf(written);
    }
}
