package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A deployment's {@code litellm_params}, validated and with {@code os.environ/NAME} resolved.
 *
 * @param model         the value as written, e.g. {@code azure/gpt-4o-eu}
 * @param provider      the prefix before the first {@code /}; {@code openai} when there is none
 * @param providerModel what the upstream is asked for: the part after the prefix
 * @param weight        relative pick weight; absent means "not set" (0 is a valid backup weight)
 * @param order         LiteLLM's priority (>= 1): while a deployment of a lower order is a
 *                      candidate, deployments of higher orders (and those without one) are not
 * @param timeout       per-attempt deadline for a non-streaming call
 * @param streamTimeout longest wait between two chunks of a stream
 * @param guardrails    {@code guardrail_name}s this deployment runs besides the {@code default_on}
 *                      ones, in the order written, each once
 * @param tags          what tag-based routing ({@code router_settings.enable_tag_filtering}) matches
 *                      a request's tags against, in the order written, each once; {@code default}
 *                      marks a deployment for untagged requests
 * @param vendor        the parameters only some vendors read
 * @param unsetVariables the variables its credentials or endpoint name ({@code api_key:
 *                      os.environ/AZURE_API_KEY}) that are not set, in the order written: the
 *                      deployment is listed and routed to, but every call to it fails naming
 *                      them, as a LiteLLM deployment without its key does
 * @param unitPrices    the prices of calls not billed by the token (images, speech, audio, rerank)
 */
public record LitellmParams(
        String model,
        String provider,
        String providerModel,
        Optional<String> apiBase,
        Optional<Secret> apiKey,
        Optional<String> apiVersion,
        OptionalInt rpm,
        OptionalInt tpm,
        OptionalDouble weight,
        OptionalInt order,
        Optional<Duration> timeout,
        Optional<Duration> streamTimeout,
        OptionalInt maxRetries,
        Optional<Duration> cooldownTime,
        OptionalDouble inputCostPerToken,
        OptionalDouble outputCostPerToken,
        List<String> guardrails,
        List<String> tags,
        VendorParams vendor,
        List<String> unsetVariables,
        UnitPrices unitPrices) {

    public LitellmParams {
        guardrails = List.copyOf(guardrails);
        tags = List.copyOf(tags);
        unsetVariables = List.copyOf(unsetVariables);
    }

    /**
     * The same parameters asking for {@code replaced} instead of {@link #model()}, its provider and
     * provider model read by the config's rule: what a wildcard deployment serves for one request.
     */
    public LitellmParams withModel(String replaced) {
        return new LitellmParams(replaced, LitellmParamsParser.providerOf(replaced), LitellmParamsParser.providerModelOf(replaced),
                apiBase, apiKey, apiVersion, rpm, tpm, weight, order, timeout, streamTimeout, maxRetries, cooldownTime,
                inputCostPerToken, outputCostPerToken, guardrails, tags, vendor, unsetVariables, unitPrices);
    }

    /** The same parameters with {@code replaced} vendor parameters. */
    public LitellmParams withVendor(VendorParams replaced) {
        return new LitellmParams(model, provider, providerModel, apiBase, apiKey, apiVersion, rpm, tpm, weight, order, timeout,
                streamTimeout, maxRetries, cooldownTime, inputCostPerToken, outputCostPerToken, guardrails, tags, replaced,
                unsetVariables, unitPrices);
    }
}
