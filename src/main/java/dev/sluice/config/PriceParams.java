package dev.sluice.config;

import java.util.OptionalDouble;

/**
 * What a deployment's calls cost, when its {@code litellm_params} say rather than the model catalog.
 *
 * @param unitPrices the prices of calls not billed by the token (images, speech, audio, rerank)
 */
public record PriceParams(OptionalDouble inputCostPerToken, OptionalDouble outputCostPerToken, UnitPrices unitPrices) {}
