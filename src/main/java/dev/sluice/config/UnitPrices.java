package dev.sluice.config;

import java.util.OptionalDouble;

/**
 * A deployment's prices of calls not billed by the token, in US dollars, as LiteLLM's
 * {@code litellm_params} write them: images, pixels, characters of speech, seconds of audio,
 * rerank queries. Each is absent unless written.
 *
 * @param outputCostPerImage    {@code output_cost_per_image}: each image generated
 * @param inputCostPerPixel     {@code input_cost_per_pixel}: each pixel of each image generated, by its {@code size}
 * @param inputCostPerCharacter {@code input_cost_per_character}: each character of the text spoken
 * @param inputCostPerSecond    {@code input_cost_per_second}: each second of audio transcribed
 * @param inputCostPerQuery     {@code input_cost_per_query}: each rerank query (Cohere's search unit)
 */
public record UnitPrices(OptionalDouble outputCostPerImage, OptionalDouble inputCostPerPixel,
        OptionalDouble inputCostPerCharacter, OptionalDouble inputCostPerSecond, OptionalDouble inputCostPerQuery) {

    /** A deployment that writes none of them. */
    public static final UnitPrices NONE = new UnitPrices(OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
            OptionalDouble.empty(), OptionalDouble.empty());

    /** Whether any of them is written. Asked on every priced call, so it builds nothing. */
    public boolean any() {
        return outputCostPerImage.isPresent() || inputCostPerPixel.isPresent() || inputCostPerCharacter.isPresent()
                || inputCostPerSecond.isPresent() || inputCostPerQuery.isPresent();
    }
}
