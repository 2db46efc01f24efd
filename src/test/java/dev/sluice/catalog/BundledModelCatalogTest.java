package dev.sluice.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.catalog.BundledModelCatalog.Entry;
import dev.sluice.catalog.ModelCatalog.Prices;
import dev.sluice.config.Deployment;
import dev.sluice.testing.Deployments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BundledModelCatalogTest {
    private final BundledModelCatalog catalog = new BundledModelCatalog();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            openai/gpt-4o                                | gpt-4o
            gpt-4o                                       | gpt-4o
            openai/gpt-4o-2024-08-06                     | gpt-4o
            openai/gpt-4o-2024-05-13                     | gpt-4o-2024-05-13
            openai/gpt-4o-mini-2024-07-18                | gpt-4o-mini
            openai/GPT-4.1-mini                          | gpt-4.1-mini
            openai/gpt-4.1-2025-04-14                    | gpt-4.1
            openai/o3-mini-2025-01-31                    | o3-mini
            openai/gpt-3.5-turbo-0125                    | gpt-3.5-turbo
            openai/gpt-3.5-turbo-1106                    | gpt-3.5-turbo-1106
            openrouter/anthropic/claude-3.5-sonnet       | claude-3-5-sonnet
            openai_compatible/claude-3-5-sonnet-20241022 | claude-3-5-sonnet
            openai_compatible/claude-3-7-sonnet-latest   | claude-3-7-sonnet
            openai_compatible/claude-sonnet-4-20250514   | claude-sonnet-4
            openrouter/anthropic/claude-opus-4           | claude-opus-4
            openai_compatible/claude-3-5-haiku-20241022  | claude-3-5-haiku
            mistral/mistral-large-latest                 | mistral-large
            mistral/mistral-large-2411                   | mistral-large
            deepseek/deepseek-chat                       | deepseek-chat
            groq/llama-3.3-70b-versatile                 | llama-3.3-70b-versatile
            together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo | llama-3.3-70b-instruct-turbo
            openai_compatible/us.anthropic.claude-sonnet-4-20250514-v1:0 | claude-sonnet-4
            openai_compatible/anthropic.claude-3-5-sonnet-20241022-v2:0  | claude-3-5-sonnet
            openai_compatible/eu.anthropic.claude-haiku-4-5-20251001-v1:0 | claude-haiku-4-5
            openai_compatible/claude-3-5-sonnet-v2@20241022              | claude-3-5-sonnet
            openai_compatible/claude-opus-4-1@20250805                   | claude-opus-4-1
            openai_compatible/amazon.nova-pro-v1:0                       | amazon.nova-pro-v1:0
            openai_compatible/us.amazon.nova-lite-v1:0                   | amazon.nova-lite-v1:0
            openai_compatible/amazon.titan-embed-text-v2:0               | amazon.titan-embed-text-v2:0
            openai_compatible/amazon.titan-embed-text-v1                 | amazon.titan-embed-text-v1
            openai_compatible/gemini-2.0-flash-001                       | gemini-2.0-flash
            openai_compatible/gemini-2.5-pro-preview-05-06               | gemini-2.5-pro
            openai_compatible/gemini-2.5-flash                           | gemini-2.5-flash
            """)
    void matchesTheModelAfterItsProviderPrefixThenItsFamily(String model, String entry) {
        Deployment deployment = Deployments.one("model: " + model);

        assertThat(catalog.entry(deployment.params().providerModel())).map(Entry::name).contains(entry);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            azure/gpt-4o-eu
            hosted_vllm/meta-llama/Meta-Llama-3-8B-Instruct
            ollama/llama3
            openai/gpt-4
            """)
    void knowsNothingOfAModelOutsideTheTable(String model) {
        Deployment deployment = Deployments.one("model: " + model);

        assertThat(catalog.maxInputTokens(deployment)).isEmpty();
        assertThat(catalog.prices(deployment)).isEmpty();
    }

    @Test
    void readsTheWindowAndPricesOfAKnownModel() {
        Deployment deployment = Deployments.one("model: openai/gpt-4o");

        assertThat(catalog.maxInputTokens(deployment)).hasValue(128_000);
        assertThat(catalog.prices(deployment)).hasValueSatisfying(prices -> {
            assertThat(prices.inputPerToken()).isCloseTo(0.0000025, within(1e-15));
            assertThat(prices.outputPerToken()).isCloseTo(0.00001, within(1e-15));
        });
    }

    @Test
    void anExactDatedEntryWinsOverItsFamily() {
        Prices dated = catalog.prices(Deployments.one("model: openai/gpt-4o-2024-05-13")).orElseThrow();
        Prices family = catalog.prices(Deployments.one("model: openai/gpt-4o-2024-11-20")).orElseThrow();

        assertThat(dated.inputPerToken()).isCloseTo(0.000005, within(1e-15));
        assertThat(family.inputPerToken()).isCloseTo(0.0000025, within(1e-15));
    }

    @Test
    void theDeploymentsOwnWindowComesFirst() {
        Deployment deployment = Deployments.one("model: openai/gpt-4o | max_input_tokens: 8000");

        assertThat(catalog.maxInputTokens(deployment)).hasValue(8000);
    }

    @Test
    void aWindowWrittenForAnUnknownModelIsUsed() {
        Deployment deployment = Deployments.one("model: hosted_vllm/my-model | max_input_tokens: 32768");

        assertThat(catalog.maxInputTokens(deployment)).hasValue(32768);
    }

    @Test
    void theDeploymentsOwnPricesComeFirstEachOnItsOwn() {
        Prices both = catalog.prices(Deployments.one(
                "model: openai/gpt-4o, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002")).orElseThrow();
        Prices inputOnly = catalog.prices(Deployments.one("model: openai/gpt-4o, input_cost_per_token: 0.000001")).orElseThrow();

        assertThat(both).isEqualTo(new Prices(0.000001, 0.000002));
        assertThat(inputOnly.inputPerToken()).isEqualTo(0.000001);
        assertThat(inputOnly.outputPerToken()).isCloseTo(0.00001, within(1e-15));
    }

    @Test
    void onePriceWrittenForAnUnknownModelLeavesTheOtherAtZero() {
        Prices prices = catalog.prices(Deployments.one("model: hosted_vllm/embedder, input_cost_per_token: 0.0000001"))
                .orElseThrow();

        assertThat(prices).isEqualTo(new Prices(0.0000001, 0));
    }

    @Test
    void coversTheCommonModelsOfEachProvider() {
        for (String model : new String[] {
                "gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o1", "o1-mini", "o3", "o3-mini",
                "o4-mini", "gpt-3.5-turbo", "claude-3-5-sonnet", "claude-3-5-haiku", "claude-3-7-sonnet",
                "claude-sonnet-4", "claude-opus-4", "claude-3-opus", "claude-3-haiku", "mistral-large", "mistral-small",
                "deepseek-chat", "deepseek-reasoner", "llama-3.3-70b-versatile", "llama-3.1-8b-instant"}) {
            assertThat(catalog.entry(model)).as(model).isPresent();
        }
    }

    @Test
    void theBundledTableSaysWhenItsFiguresWereTakenAndEveryEntryIsWhole() {
        assertThat(BundledModelCatalog.asOf()).matches("\\d{4}-\\d{2}-\\d{2}");
        BundledModelCatalog.Table table = BundledModelCatalog.Table.read(
                BundledModelCatalog.class.getResourceAsStream("models.json"));
        assertThat(table.models()).hasSizeGreaterThan(25).allSatisfy((name, entry) -> {
            assertThat(entry.maxInputTokens()).isPositive();
            assertThat(entry.inputPerToken()).isPositive();
            assertThat(entry.outputPerToken()).isNotNegative();
            assertThat(entry.source()).isNotEmpty();
        });
    }

    @Test
    void aMatchIsWorkedOutOnceAndKept() {
        assertThat(catalog.entry("gpt-4o-2024-08-06")).isSameAs(catalog.entry("gpt-4o-2024-08-06"));
    }

    @Test
    void cacheRatesAndOutputLimitsComeFromTheTableWithItsInputPrice() {
        Prices sonnet = catalog.prices(Deployments.one("model: openai_compatible/claude-sonnet-4-5-20250929")).orElseThrow();
        assertThat(sonnet.inputPerToken()).isCloseTo(0.000003, within(1e-15));
        assertThat(sonnet.cacheReadPerToken()).isCloseTo(0.0000003, within(1e-15));
        assertThat(sonnet.cacheWritePerToken()).isCloseTo(0.00000375, within(1e-15));
        assertThat(catalog.maxOutputTokens(Deployments.one("model: openai_compatible/claude-sonnet-4-5-20250929"))).hasValue(64000);

        Prices gemini = catalog.prices(Deployments.one("model: openai_compatible/gemini-2.5-flash")).orElseThrow();
        assertThat(gemini.cacheReadPerToken()).isCloseTo(0.00000003, within(1e-15));
        assertThat(gemini.cacheWritePerToken()).as("Google bills cache writes as input").isEqualTo(gemini.inputPerToken());

        Prices noCacheRates = catalog.prices(Deployments.one("model: openai/gpt-4o")).orElseThrow();
        assertThat(noCacheRates.cacheReadPerToken()).isEqualTo(noCacheRates.inputPerToken());
        assertThat(catalog.maxOutputTokens(Deployments.one("model: openai/gpt-4o"))).isEmpty();
    }

    @Test
    void aDeploymentPricedApartPaysItsOwnInputRateForCachedTokens() {
        Prices own = catalog.prices(Deployments.one(
                "model: openai_compatible/claude-sonnet-4-5, input_cost_per_token: 0.00001")).orElseThrow();

        assertThat(own.inputPerToken()).isCloseTo(0.00001, within(1e-15));
        assertThat(own.cacheReadPerToken()).isCloseTo(0.00001, within(1e-15));
        assertThat(own.outputPerToken()).isCloseTo(0.000015, within(1e-15));
    }
}
