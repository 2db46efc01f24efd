package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The records' rules, checked before anything reaches a database. */
class RecordsTest {
    static final String HASH = VirtualKey.hash("sk-1234");

    @Test
    void aKeyIsStoredAsItsSha256InLowercaseHex() {
        assertThat(VirtualKey.hash("sk-1234")).isEqualTo("88dc28d0f030c55ed4ab77ed8faf098196cb1c05df778539800c9f1243fe6b4b");
        assertThat(VirtualKey.hash("")).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void aKeysDisplayNameShowsItsLastFourCharacters() {
        assertThat(VirtualKey.maskedName("sk-abcdefgh1234")).isEqualTo("sk-...1234");
        assertThat(VirtualKey.maskedName("ab")).isEqualTo("sk-...ab");
    }

    @Test
    void aHashThatIsNotSha256HexIsRefused() {
        assertThatThrownBy(() -> VirtualKey.builder("sk-raw-key-not-hashed-0123456789", "sk-...6789", T0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("token_hash: sk-raw-key-not-h... (expected: a SHA-256 digest in 64 lowercase hex digits)");
        assertThatThrownBy(() -> VirtualKey.builder(HASH.toUpperCase(), "sk-...1234", T0).build())
                .hasMessageContaining("expected: a SHA-256 digest in 64 lowercase hex digits");
    }

    @Test
    void limitsAndBudgetsMayNotBeNegative() {
        VirtualKey.Builder key = VirtualKey.builder(HASH, "sk-...1234", T0);

        assertThatThrownBy(() -> key.rpmLimit(-1L).build()).hasMessage("rpm_limit: -1 (expected: >= 0)");
        key.rpmLimit(null);
        assertThatThrownBy(() -> key.maxParallelRequests(-2).build()).hasMessage("max_parallel_requests: -2 (expected: >= 0)");
        key.maxParallelRequests(null);
        assertThatThrownBy(() -> key.maxBudget(new BigDecimal("-0.5")).build()).hasMessage("max_budget: -0.5 (expected: >= 0)");
        key.maxBudget(null);
        assertThatThrownBy(() -> key.modelTpmLimit(Map.of("gpt-4o", -5L)).build())
                .hasMessage("model_tpm_limit.gpt-4o: -5 (expected: >= 0)");
        assertThatThrownBy(() -> ModelBudget.of(new BigDecimal("-1"), "1d")).hasMessage("budget_limit: -1 (expected: >= 0)");
    }

    @Test
    void aSpendRowChecksItsStatusTokensAndCost() {
        assertThatThrownBy(() -> SpendRow.builder("c", "g", T0).status(0).build())
                .hasMessage("status: 0 (expected: an HTTP status from 100 to 599)");
        assertThatThrownBy(() -> SpendRow.builder("c", "g", T0).promptTokens(-1).build())
                .hasMessage("prompt_tokens: -1 (expected: >= 0)");
        assertThatThrownBy(() -> SpendRow.builder("c", "g", T0).cost(new BigDecimal("-0.1")).build())
                .hasMessage("cost: -0.1 (expected: >= 0)");
        assertThatThrownBy(() -> SpendRow.builder(" ", "g", T0).build())
                .hasMessage("call_id: \" \" (expected: a non-blank id)");
    }

    @Test
    void aSpendRowsCacheKeyIsASha256InHexAfterAnOptionalNamespace() {
        String hash = "0123456789abcdef".repeat(4);
        String longest = "n".repeat(256) + ":" + hash;

        assertThat(SpendRow.builder("c", "g", T0).cacheKey(hash).build().cacheKey()).contains(hash);
        assertThat(SpendRow.builder("c", "g", T0).cacheKey(longest).build().cacheKey()).contains(longest);
        assertThat(SpendRow.builder("c", "g", T0).cacheKey("team a:" + hash).build().cacheKey()).contains("team a:" + hash);
        assertThatThrownBy(() -> SpendRow.builder("c", "g", T0).cacheKey("n" + longest).build())
                .hasMessage("cache_key: \"nnnnnnnnnnnnnnnn...\" (expected: 64 lowercase hex digits, after a namespace of up to 256 characters and a colon if any)");
        assertThatThrownBy(() -> SpendRow.builder("c", "g", T0).cacheKey(hash.toUpperCase()).build())
                .hasMessage("cache_key: \"0123456789ABCDEF...\" (expected: 64 lowercase hex digits, after a namespace of up to 256 characters and a colon if any)");
        assertThatThrownBy(() -> SpendRow.builder("c", "g", T0).cacheKey("").build())
                .hasMessage("cache_key: \"\" (expected: 64 lowercase hex digits, after a namespace of up to 256 characters and a colon if any)");
        assertThatThrownBy(() -> SpendRow.builder("c", "g", T0).cacheKey(":" + hash).build())
                .hasMessage("cache_key: \":0123456789abcde...\" (expected: 64 lowercase hex digits, after a namespace of up to 256 characters and a colon if any)");
        assertThat(SpendRow.builder("c", "g", T0).build().cacheHit()).as("by default").isFalse();
    }

    @Test
    void moneyIsKeptToTwelveDecimalPlacesRoundedHalfEven() {
        assertThat(Money.of(new BigDecimal("0.0000000000005"))).isEqualTo(new BigDecimal("0.000000000000"));
        assertThat(Money.of(new BigDecimal("0.0000000000015"))).isEqualTo(new BigDecimal("0.000000000002"));
        assertThat(Money.of(0.1)).isEqualTo(new BigDecimal("0.100000000000"));
        assertThat(Money.of(2.5e-6 * 1000)).isEqualTo(new BigDecimal("0.002500000000"));
        assertThatThrownBy(() -> Money.of(Double.NaN)).hasMessage("amount: NaN (expected: a finite number)");
    }

    @Test
    void recordsDoNotShareTheirJsonOrListsWithCallers() {
        ObjectNode metadata = json("{\"a\": 1}");
        List<String> models = new ArrayList<>(List.of("gpt-4o"));
        VirtualKey key = VirtualKey.builder(HASH, "sk-...1234", T0).metadata(metadata).models(models).build();

        metadata.put("a", 2);
        models.add("gpt-4o-mini");
        key.metadata().put("b", 3);

        assertThat(key.metadata()).isEqualTo(json("{\"a\": 1}"));
        assertThat(key.models()).containsExactly("gpt-4o");
    }

    @Test
    void aCopyMadeWithTheBuilderEqualsTheOriginal() {
        VirtualKey key = KeyRepositoryTest.everyField();
        Team team = TeamRepositoryTest.everyField();

        assertThat(key.toBuilder().build()).isEqualTo(key);
        assertThat(team.toBuilder().build()).isEqualTo(team);
    }

    @Test
    void aSpendRowCountsTotalTokensUnlessTold() {
        assertThat(SpendRow.builder("c", "g", T0).promptTokens(10).completionTokens(5).build().tokens().totalTokens()).isEqualTo(15);
        assertThat(SpendRow.builder("c", "g", T0).promptTokens(10).totalTokens(12).build().tokens().totalTokens()).isEqualTo(12);
    }

    @Test
    void aPageStartsAtOneAndHoldsAtMostAThousandRows() {
        assertThat(Page.of(3, 25).offset()).isEqualTo(50);
        assertThatThrownBy(() -> Page.of(0, 10)).hasMessage("page: 0 (expected: >= 1)");
        assertThatThrownBy(() -> Page.of(1, 1001)).hasMessage("size: 1001 (expected: 1 to 1000)");
    }
}
