package dev.sluice.vendors;

import dev.sluice.config.Deployment;
import dev.sluice.model.ModelRequest;

/**
 * LiteLLM's {@code drop_params}: whether a parameter the deployment's vendor cannot take is
 * left out of the call (and the caller told in {@code x-sluice-dropped-params}) rather than
 * refused with a 400. The request's own {@code drop_params: true} sets it for one call; the
 * deployment's {@code litellm_params.drop_params}, else {@code litellm_settings.drop_params},
 * for every call.
 */
public final class DropParams {
    private DropParams() {}

    /** Whether {@code request} to {@code deployment} drops what the vendor cannot take. */
    public static boolean allowed(Deployment deployment, ModelRequest request) {
        return request.body().path("drop_params").asBoolean(false) || allowed(deployment);
    }

    /** Whether every call to {@code deployment} drops what the vendor cannot take. */
    public static boolean allowed(Deployment deployment) {
        return deployment.params().vendor().dropParams().orElse(false);
    }
}
