package dev.sluice.config;

/**
 * A {@code model_list} entry whose provider Sluice has no adapter for. It is left out of what
 * is served, with one warning at start-up, rather than stopping the start: a LiteLLM config
 * with one such deployment still serves the rest. A call to a group that has nothing else is
 * told which provider it needs.
 *
 * @param index     its place in {@code model_list}
 * @param modelName its {@code model_name}: the group it would have served
 * @param model     its {@code litellm_params.model}, e.g. {@code sagemaker/my-endpoint}
 * @param provider  the prefix no adapter serves, e.g. {@code sagemaker}
 */
public record UnservedDeployment(int index, String modelName, String model, String provider) {

    /** One line for logs and {@code check-config}, naming the entry and why it is left out. */
    public String describe() {
        return "model_list[" + index + "] (model_name " + modelName + ", model " + model + "): provider '" + provider
                + "' is not served by Sluice; the deployment is left out";
    }
}
