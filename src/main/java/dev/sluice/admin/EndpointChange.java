package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.ApiError;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The rule that a {@code /model/update} which moves a stored deployment elsewhere brings its
 * credentials again. Otherwise a change of {@code api_base} alone would send the key stored
 * with the entry (which the caller may never have known: written by someone else, or before a
 * key rotation) to an address of the caller's choice.
 *
 * <p>Where calls go is read off {@code api_base}, Bedrock's {@code aws_bedrock_runtime_endpoint},
 * the regions written into a vendor's host ({@code vertex_location}, {@code aws_region_name})
 * and the provider prefix of {@code model} (which picks a default host). Each credential the
 * stored entry holds must then be in the change: written again, or {@code null} to drop it.
 */
final class EndpointChange {
    private static final List<String> DESTINATION_FIELDS = List.of("api_base", "aws_bedrock_runtime_endpoint", "vertex_location",
            "aws_region_name");
    private static final List<String> CREDENTIAL_FIELDS = List.of("api_key", "vertex_credentials", "aws_access_key_id",
            "aws_secret_access_key", "aws_session_token");

    private EndpointChange() {}

    /** The refusal of {@code change} to the {@code stored} entry, when it moves the entry without its credentials. */
    static Optional<ApiError> refusal(JsonNode stored, JsonNode change) {
        JsonNode before = stored.path("litellm_params");
        JsonNode after = change.path("litellm_params");
        Optional<String> moved = DESTINATION_FIELDS.stream().filter(field -> after.has(field)
                && !Objects.equals(after.get(field), before.get(field))).findFirst()
                .or(() -> after.has("model") && !provider(after.get("model")).equals(provider(before.get("model")))
                        ? Optional.of("model") : Optional.empty());
        if (moved.isEmpty()) {
            return Optional.empty();
        }
        for (String credential : CREDENTIAL_FIELDS) {
            if (before.has(credential) && !after.has(credential)) {
                String field = "litellm_params." + credential;
                return Optional.of(ApiError.invalidRequest("The model is not changed: litellm_params." + moved.get()
                        + " changes where the deployment's calls go, so " + field + " must be given again with it (or null to"
                        + " drop it); the stored one is never sent to a new address.", field, "credential_required"));
            }
        }
        return Optional.empty();
    }

    /** The provider prefix of a {@code model} value, or the value itself when it is not text. */
    private static String provider(JsonNode model) {
        if (model == null || !model.isTextual()) {
            return String.valueOf(model);
        }
        String text = model.textValue();
        int slash = text.indexOf('/');
        return slash < 0 ? "openai" : text.substring(0, slash);
    }
}
