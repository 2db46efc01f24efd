package dev.sluice.catalog;

import dev.sluice.config.Deployment;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What is known about a deployment's model beyond its config: its context window and its
 * prices. A deployment's own config (model_info.max_input_tokens,
 * litellm_params.input_cost_per_token / output_cost_per_token) comes first; a bundled table
 * of common models fills the gaps.
 */
public interface ModelCatalog {

    OptionalInt maxInputTokens(Deployment deployment);

    Optional<Prices> prices(Deployment deployment);

    /** US dollars per token. */
    record Prices(double inputPerToken, double outputPerToken) {
        public double perTokenPair() {
            return inputPerToken + outputPerToken;
        }
    }
}
