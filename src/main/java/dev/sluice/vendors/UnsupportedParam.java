package dev.sluice.vendors;

/**
 * A parameter of the caller's request that the deployment's vendor cannot take, refused
 * because {@code drop_params} is not set (LiteLLM's rule). The caller gets a 400 naming it.
 */
public final class UnsupportedParam extends IllegalArgumentException {
    private final String param;

    /**
     * @param param  the caller's field, e.g. {@code logprobs}
     * @param vendor the vendor's name, e.g. {@code Anthropic}
     */
    public UnsupportedParam(String param, String vendor) {
        super(vendor + " does not support the parameter '" + param + "'. Leave it out, or set drop_params: true"
                + " (in the request, the deployment's litellm_params or litellm_settings) to have it dropped.");
        this.param = param;
    }

    public String param() {
        return param;
    }
}
