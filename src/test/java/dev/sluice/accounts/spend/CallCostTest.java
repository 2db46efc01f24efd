package dev.sluice.accounts.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.accounts.spend.CallCost.Cost;
import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.testing.Deployments;
import dev.sluice.wire.Json;
import org.junit.jupiter.api.Test;

class CallCostTest {
    final CallCost cost = new CallCost(new BundledModelCatalog());

    @Test
    void pricesPromptAndCompletionTokensAtTheDeploymentsOwnPrices() {
        var deployment = Deployments.one(
                "model: openai/house-model, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002");

        assertThat(cost.of(deployment, 1000, 500)).isEqualTo(new Cost(0.002, true));
    }

    @Test
    void usesTheBundledTableWhenTheConfigGivesNoPrice() {
        // gpt-4o-mini: 0.15 and 0.60 dollars per million tokens.
        var deployment = Deployments.one("model: openai/gpt-4o-mini");

        assertThat(cost.of(deployment, 1_000_000, 1_000_000)).isEqualTo(new Cost(0.75, true));
    }

    @Test
    void aPriceInTheConfigWinsOverTheTable() {
        var deployment = Deployments.one("model: openai/gpt-4o, input_cost_per_token: 0");

        // gpt-4o's output is 10 dollars per million tokens; its input is free here.
        assertThat(cost.of(deployment, 1_000_000, 1000)).isEqualTo(new Cost(0.01, true));
    }

    @Test
    void aModelWithoutAKnownPriceCostsZeroAndSaysSo() {
        var deployment = Deployments.one("model: openai/house-model");

        Cost unpriced = cost.of(deployment, 1000, 1000);

        assertThat(unpriced).isEqualTo(Cost.UNPRICED);
        assertThat(unpriced.priced()).isFalse();
        assertThat(unpriced.dollars()).isZero();
    }

    @Test
    void aModelPricedAtZeroIsFreeNotUnpriced() {
        var deployment = Deployments.one(
                "model: openai/house-model, input_cost_per_token: 0, output_cost_per_token: 0");

        assertThat(cost.of(deployment, 1000, 1000)).isEqualTo(new Cost(0, true));
    }

    @Test
    void theSumIsExactInDecimal() {
        var deployment = Deployments.one(
                "model: openai/house-model, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002");

        // In binary floating point 1000 * 0.000001 + 256 * 0.000002 is 0.0015119999999999999.
        assertThat(cost.of(deployment, 1000, 256).dollars()).isEqualTo(0.001512);
    }

    @Test
    void negativeTokenCountsAreRefused() {
        var deployment = Deployments.one("model: openai/gpt-4o-mini");

        assertThatThrownBy(() -> cost.of(deployment, -1, 0)).hasMessage("promptTokens: -1 (expected: >= 0)");
        assertThatThrownBy(() -> cost.of(deployment, 0, -1)).hasMessage("completionTokens: -1 (expected: >= 0)");
    }

    @Test
    void cachedPromptTokensCostTheCacheRatesAndTheRestTheInputRate() {
        // claude-sonnet-4-5: $3 input, $0.30 cache read, $3.75 cache write, $15 output per million.
        TokenUsage usage = new TokenUsage(10_000, 1_000, 6_000, 2_000);

        CallCost.Cost priced = cost.of(Deployments.one("model: openai_compatible/claude-sonnet-4-5"), usage);

        assertThat(priced.dollars()).isCloseTo(2_000 * 0.000003 + 6_000 * 0.0000003 + 2_000 * 0.00000375 + 1_000 * 0.000015,
                within(1e-12));
    }

    @Test
    void usageReadsCachedAndCacheWrittenTokensAndNeverBelievesMoreThanThePrompt() throws Exception {
        TokenUsage read = TokenUsage.of(Json.parse("""
                {"prompt_tokens": 100, "completion_tokens": 5,
                 "prompt_tokens_details": {"cached_tokens": 60}, "cache_creation_input_tokens": 30}""".getBytes())).orElseThrow();
        assertThat(read).isEqualTo(new TokenUsage(100, 5, 60, 30));

        TokenUsage capped = TokenUsage.of(Json.parse("""
                {"prompt_tokens": 10, "completion_tokens": 5,
                 "prompt_tokens_details": {"cached_tokens": 60}, "cache_creation_input_tokens": 30}""".getBytes())).orElseThrow();
        assertThat(capped).isEqualTo(new TokenUsage(10, 5, 10, 0));
    }
}
