package dev.sluice.accounts.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.accounts.spend.FallbackEstimate.Estimate;
import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.testing.Deployments;
import dev.sluice.wire.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FallbackEstimateTest {
    final FallbackEstimate estimate = new FallbackEstimate(new CallCost(new BundledModelCatalog()));

    static JsonNode body(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static String priced(String model, String input, String output) {
        return "model: openai/" + model + ", input_cost_per_token: " + input + ", output_cost_per_token: " + output;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {}                                                | 256
            {"max_tokens": 100}                               | 100
            {"max_completion_tokens": 50}                     | 50
            {"max_completion_tokens": 50, "max_tokens": 100}  | 50
            {"max_tokens": 0}                                 | 0
            {"max_tokens": 100.0}                             | 100
            {"max_tokens": 100.5}                             | 256
            {"max_tokens": -5}                                | 256
            {"max_tokens": "100"}                             | 256
            {"max_tokens": null}                              | 256
            {"max_completion_tokens": "x", "max_tokens": 64}  | 64
            """)
    void completionTokensComeFromTheBodyElse256(String json, long tokens) {
        assertThat(FallbackEstimate.completionTokens(body(json))).isEqualTo(tokens);
    }

    @Test
    void promptTokensAtTheInputPricePlusTheMaximumAnswerAtTheOutputPrice() {
        List<Deployment> group = Deployments.of(priced("fast", "0.000001", "0.000002"));

        Estimate e = estimate.of(group, 1000, body("{\"max_tokens\": 500}"));

        assertThat(e.dollars()).isEqualTo(0.002);
        assertThat(e.completionTokens()).isEqualTo(500);
        assertThat(e.priced()).isTrue();
        assertThat(e.isFree()).isFalse();
    }

    @Test
    void withoutAMaximumTheAnswerIsTaken256TokensLong() {
        List<Deployment> group = Deployments.of(priced("fast", "0.000001", "0.000002"));

        // 1000 * 0.000001 + 256 * 0.000002
        assertThat(estimate.of(group, 1000, body("{}")).dollars()).isEqualTo(0.001512);
    }

    @Test
    void withoutAMaximumTheAnswerIsAsLongAsTheGroupsAnswersRunAndAMaximumStillWins() {
        List<Deployment> group = Deployments.of(priced("fast", "0.000001", "0.000002"));

        // 1000 * 0.000001 + 20 * 0.000002
        assertThat(estimate.of(group, 1000, body("{}"), 20).dollars()).isEqualTo(0.00104);
        assertThat(estimate.of(group, 1000, body("{\"max_tokens\": 500}"), 20).completionTokens()).isEqualTo(500);
    }

    @Test
    void theCheapestDeploymentForThisCallIsTheBasis() {
        List<Deployment> group = Deployments.of(
                priced("cheap-in", "0.000001", "0.00001"),
                priced("cheap-out", "0.000005", "0.000001"));

        Estimate longPrompt = estimate.of(group, 10_000, body("{\"max_tokens\": 10}"));
        Estimate longAnswer = estimate.of(group, 10, body("{\"max_tokens\": 10000}"));

        assertThat(longPrompt.basis().id()).isEqualTo("d0");
        assertThat(longPrompt.dollars()).isEqualTo(0.0101);
        assertThat(longAnswer.basis().id()).isEqualTo("d1");
        assertThat(longAnswer.dollars()).isEqualTo(0.01005);
    }

    @Test
    void amongEquallyCheapDeploymentsTheFirstIsTheBasis() {
        List<Deployment> group = Deployments.of(
                priced("a", "0.000001", "0.000001"), priced("b", "0.000001", "0.000001"));

        assertThat(estimate.of(group, 100, body("{}")).basis().id()).isEqualTo("d0");
    }

    @Test
    void aGroupWithAnUnpricedDeploymentIsFreeAndSaysItIsUnpriced() {
        List<Deployment> group = Deployments.of(priced("a", "0.000001", "0.000001"), "model: openai/house-model");

        Estimate e = estimate.of(group, 100, body("{}"));

        assertThat(e.isFree()).isTrue();
        assertThat(e.priced()).isFalse();
        assertThat(e.basis().id()).isEqualTo("d1");
    }

    @Test
    void aGroupPricedAtZeroIsFree() {
        List<Deployment> group = Deployments.of(priced("local", "0", "0"));

        Estimate e = estimate.of(group, 100_000, body("{\"max_tokens\": 4096}"));

        assertThat(e.isFree()).isTrue();
        assertThat(e.priced()).isTrue();
    }

    @Test
    void aGroupWithoutDeploymentsHasNoEstimate() {
        assertThatThrownBy(() -> estimate.of(List.of(), 100, body("{}")))
                .hasMessageStartingWith("deployments: [] (expected: ");
    }
}
