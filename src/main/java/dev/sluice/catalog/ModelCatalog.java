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

    /** The most tokens the model writes in one answer, when known: a vendor that needs a limit in every call gets this one. */
    default OptionalInt maxOutputTokens(Deployment deployment) {
        return OptionalInt.empty();
    }

    /**
     * US dollars per token. Prompt tokens read from or written to a vendor's prompt cache have
     * rates of their own where the vendor prices them apart, else the input rate.
     */
    record Prices(double inputPerToken, double outputPerToken, double cacheReadPerToken, double cacheWritePerToken) {
        /** Prices with no cache rates of their own. */
        public Prices(double inputPerToken, double outputPerToken) {
            this(inputPerToken, outputPerToken, inputPerToken, inputPerToken);
        }

        public double perTokenPair() {
            return inputPerToken + outputPerToken;
        }
    }
}
