package dev.sluice.accounts.spend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.spend.CallCost.Cost;
import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.testing.Deployments;
import org.junit.jupiter.api.Test;

/**
 * The order a call's price is chosen in: {@code litellm_params}' prices, then
 * {@code model_info}'s, then the catalog's for {@code base_model}, then for the model, then
 * for the model the answer named. Figures per million tokens: gpt-4o 2.50 in and 10.00 out,
 * gpt-4o-mini 0.15 in and 0.60 out.
 */
class PricingOrderTest {
    private final CallCost cost = new CallCost(new BundledModelCatalog());

    private Cost million(Deployment deployment) {
        return cost.of(deployment, 1_000_000, 1_000_000);
    }

    @Test
    void anAzureDeploymentWithAnArbitraryNameIsPricedByItsBaseModel() {
        Deployment named = Deployments.one("model: azure/my-gpt4o-deployment | base_model: azure/gpt-4o");

        assertThat(million(named)).isEqualTo(new Cost(12.5, true));
        assertThat(million(Deployments.one("model: azure/my-gpt4o-deployment"))).isEqualTo(Cost.UNPRICED);
    }

    @Test
    void theBaseModelWinsOverTheDeploymentsOwnModel() {
        assertThat(million(Deployments.one("model: openai/gpt-4o | base_model: gpt-4o-mini"))).isEqualTo(new Cost(0.75, true));
    }

    @Test
    void aBaseModelTheCatalogDoesNotKnowLeavesTheDeploymentsOwnModelToPriceIt() {
        assertThat(million(Deployments.one("model: openai/gpt-4o-mini | base_model: house-model"))).isEqualTo(new Cost(0.75, true));
    }

    @Test
    void pricesInModelInfoAreReadAsInLitellmParams() {
        Deployment deployment = Deployments.one(
                "model: openai/house-model | input_cost_per_token: 0.000001, output_cost_per_token: 0.000002");

        assertThat(million(deployment)).isEqualTo(new Cost(3, true));
    }

    @Test
    void modelInfoPricesWinOverTheCatalogsForTheBaseModel() {
        Deployment deployment = Deployments.one("model: azure/my-deployment | base_model: gpt-4o, input_cost_per_token: 0");

        assertThat(million(deployment)).isEqualTo(new Cost(10, true));
    }

    @Test
    void litellmParamsPricesWinOverModelInfosEachPriceOnItsOwn() {
        Deployment deployment = Deployments.one("model: openai/house-model, input_cost_per_token: 0.000004"
                + " | input_cost_per_token: 0.000001, output_cost_per_token: 0.000002");

        assertThat(million(deployment)).isEqualTo(new Cost(6, true));
    }

    @Test
    void theBaseModelAlsoGivesTheContextWindow() {
        BundledModelCatalog catalog = new BundledModelCatalog();

        assertThat(catalog.maxInputTokens(Deployments.one("model: azure/my-deployment | base_model: azure/gpt-4o"))).hasValue(128000);
        assertThat(catalog.maxInputTokens(Deployments.one("model: azure/my-deployment"))).isEmpty();
    }

    @Test
    void anUnpricedDeploymentIsChargedAsTheModelItsAnswerNamed() {
        Deployment alias = Deployments.one("model: openai/house-alias");

        Deployment charged = cost.chargedAs(alias, "gpt-4o-mini-2024-07-18");

        assertThat(charged.id()).isEqualTo(alias.id());
        assertThat(million(charged)).isEqualTo(new Cost(0.75, true));
    }

    @Test
    void theAnsweredModelNeverRepricesADeploymentThatHasAPrice() {
        Deployment priced = Deployments.one("model: openai/gpt-4o");
        Deployment ownPrices = Deployments.one("model: openai/house-model, input_cost_per_token: 0, output_cost_per_token: 0");

        assertThat(cost.chargedAs(priced, "gpt-4o-mini")).isSameAs(priced);
        assertThat(cost.chargedAs(ownPrices, "gpt-4o")).isSameAs(ownPrices);
    }

    @Test
    void anAnsweredModelTheCatalogDoesNotKnowOrNoneLeavesTheCallUnpriced() {
        Deployment alias = Deployments.one("model: openai/house-alias");

        assertThat(cost.chargedAs(alias, "another-house-model")).isSameAs(alias);
        assertThat(cost.chargedAs(alias, "")).isSameAs(alias);
        assertThat(cost.chargedAs(alias, null)).isSameAs(alias);
    }
}
