package dev.sluice.config;

import java.util.Map;
import java.util.Optional;

/**
 * The {@code litellm_params} that only some vendors read: where a Vertex AI or Bedrock
 * deployment lives and what signs its calls, the headers sent with every call, and whether
 * parameters the vendor cannot take are dropped. Secrets stay {@link Secret}s.
 *
 * @param vertexProject             {@code vertex_project}: the Google Cloud project
 * @param vertexLocation            {@code vertex_location}: the region, e.g. {@code us-central1}
 * @param vertexCredentials         {@code vertex_credentials}: a path to a service-account key file, or the key's JSON
 * @param awsAccessKeyId            {@code aws_access_key_id}
 * @param awsSecretAccessKey        {@code aws_secret_access_key}
 * @param awsSessionToken           {@code aws_session_token}
 * @param awsRegionName             {@code aws_region_name}, e.g. {@code us-east-1}
 * @param awsBedrockRuntimeEndpoint {@code aws_bedrock_runtime_endpoint}: a URL in place of Bedrock's own
 * @param extraHeaders              {@code extra_headers}: sent with every call to the deployment
 * @param dropParams                {@code drop_params}: leave out what the vendor cannot take rather than refuse it;
 *                                  empty when the deployment does not say ({@code litellm_settings.drop_params} then decides)
 * @param useResponsesApi           {@code use_responses_api}: {@code false} sends a caller of the Responses API
 *                                  to an OpenAI or Azure deployment through chat completions, as to any other
 *                                  vendor, rather than to the deployment's own Responses API
 */
public record VendorParams(
        Optional<String> vertexProject,
        Optional<String> vertexLocation,
        Optional<Secret> vertexCredentials,
        Optional<Secret> awsAccessKeyId,
        Optional<Secret> awsSecretAccessKey,
        Optional<Secret> awsSessionToken,
        Optional<String> awsRegionName,
        Optional<String> awsBedrockRuntimeEndpoint,
        Map<String, String> extraHeaders,
        Optional<Boolean> dropParams,
        Optional<Boolean> useResponsesApi) {

    /** A deployment that sets none of them. */
    public static final VendorParams NONE = new VendorParams(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Map.of(), Optional.empty(), Optional.empty());

    public VendorParams {
        extraHeaders = Map.copyOf(extraHeaders);
    }

    /** The same parameters with {@code drop_params} set to {@code drop}. */
    public VendorParams withDropParams(boolean drop) {
        return new VendorParams(vertexProject, vertexLocation, vertexCredentials, awsAccessKeyId, awsSecretAccessKey,
                awsSessionToken, awsRegionName, awsBedrockRuntimeEndpoint, extraHeaders, Optional.of(drop), useResponsesApi);
    }
}
