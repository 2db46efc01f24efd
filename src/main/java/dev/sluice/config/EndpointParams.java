package dev.sluice.config;

import java.util.List;
import java.util.Optional;

/**
 * Where a deployment's calls go and what they carry to get in: {@code api_base}, {@code api_key}
 * and {@code api_version} of its {@code litellm_params}.
 *
 * @param unsetVariables the variables its credentials or endpoint name ({@code api_key:
 *                       os.environ/AZURE_API_KEY}) that are not set, in the order written: the
 *                       deployment is listed and routed to, but every call to it fails naming
 *                       them, as a LiteLLM deployment without its key does
 */
public record EndpointParams(Optional<String> apiBase, Optional<Secret> apiKey, Optional<String> apiVersion,
        List<String> unsetVariables) {

    public EndpointParams {
        unsetVariables = List.copyOf(unsetVariables);
    }
}
