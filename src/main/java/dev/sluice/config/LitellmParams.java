package dev.sluice.config;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A deployment's {@code litellm_params}, validated and with {@code os.environ/NAME} resolved.
 *
 * @param model         the value as written, e.g. {@code azure/gpt-4o-eu}
 * @param provider      the prefix before the first {@code /}; {@code openai} when there is none
 * @param providerModel what the upstream is asked for: the part after the prefix
 * @param endpoint      where calls go and their credentials
 * @param capacity      {@code rpm} and {@code tpm}
 * @param weight        relative pick weight; absent means "not set" (0 is a valid backup weight)
 * @param order         LiteLLM's priority (>= 1): while a deployment of a lower order is a
 *                      candidate, deployments of higher orders (and those without one) are not
 * @param attempts      the deployment's own timeouts, retries and cooldown
 * @param prices        what its calls cost, when written here
 * @param guardrails    {@code guardrail_name}s this deployment runs besides the {@code default_on}
 *                      ones, in the order written, each once
 * @param tags          what tag-based routing ({@code router_settings.enable_tag_filtering}) matches
 *                      a request's tags against, in the order written, each once; {@code default}
 *                      marks a deployment for untagged requests
 * @param vendor        the parameters only some vendors read
 */
public record LitellmParams(
        String model,
        String provider,
        String providerModel,
        EndpointParams endpoint,
        CapacityParams capacity,
        OptionalDouble weight,
        OptionalInt order,
        AttemptParams attempts,
        PriceParams prices,
        List<String> guardrails,
        List<String> tags,
        VendorParams vendor) {

    public LitellmParams {
        guardrails = List.copyOf(guardrails);
        tags = List.copyOf(tags);
    }

    /**
     * The same parameters asking for {@code replaced} instead of {@link #model()}, its provider and
     * provider model read by the config's rule: what a wildcard deployment serves for one request.
     */
    public LitellmParams withModel(String replaced) {
        return new LitellmParams(replaced, LitellmParamsParser.providerOf(replaced), LitellmParamsParser.providerModelOf(replaced),
                endpoint, capacity, weight, order, attempts, prices, guardrails, tags, vendor);
    }

    /** The same parameters with {@code replaced} vendor parameters. */
    public LitellmParams withVendor(VendorParams replaced) {
        return new LitellmParams(model, provider, providerModel, endpoint, capacity, weight, order, attempts, prices, guardrails,
                tags, replaced);
    }
}
