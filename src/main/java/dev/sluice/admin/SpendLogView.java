package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.router.ModelRegistry;
import dev.sluice.store.SpendRow;
import dev.sluice.wire.Json;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * A spend log row as {@code /spend/logs} shows it, in the fields of LiteLLM's
 * {@code LiteLLM_SpendLogs}. What Sluice does not record is LiteLLM's empty value for it:
 * {@code call_type}, {@code requester_ip_address} and {@code session_id} are empty, and
 * {@code end_user} when the call named none; {@code messages} and {@code response} empty objects (no content is kept), and
 * {@code completionStartTime} is null.
 *
 * <p>{@code model}, {@code custom_llm_provider} and {@code api_base} are read from the
 * deployment that answered while the gateway still serves it, else the model group and
 * empty; {@code api_base} is shown without user info, query or fragment, where a secret may
 * hide.
 */
final class SpendLogView {
    private SpendLogView() {}

    static ObjectNode of(SpendRow row, ModelRegistry models) {
        Optional<Deployment> deployment = row.deploymentId().flatMap(models::find);
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("request_id", row.callId());
        view.put("call_type", "");
        view.put("api_key", row.accounts().keyHash().orElse(""));
        view.put("spend", row.cost().doubleValue());
        view.put("total_tokens", row.tokens().totalTokens());
        view.put("prompt_tokens", row.tokens().promptTokens());
        view.put("completion_tokens", row.tokens().completionTokens());
        view.put("startTime", row.startedAt().toString());
        view.put("endTime", row.startedAt().plusMillis(row.durationMs()).toString());
        view.putNull("completionStartTime");
        view.put("model", model(row, deployment));
        view.put("model_id", row.deploymentId().orElse(""));
        view.put("model_group", row.modelGroup());
        view.put("custom_llm_provider", deployment.map(d -> d.params().provider()).orElse(""));
        view.put("api_base", deployment.flatMap(d -> d.params().endpoint().apiBase()).map(SpendLogView::withoutSecrets).orElse(""));
        view.put("user", row.accounts().userId().orElse(""));
        view.set("metadata", metadata(row));
        view.put("cache_hit", row.cacheHit() ? "True" : "False");
        view.put("cache_key", row.cacheKey().orElse(""));
        ArrayNode tags = view.putArray("request_tags");
        row.tags().forEach(tags::add);
        view.put("team_id", row.accounts().teamId().orElse(""));
        view.put("end_user", row.accounts().endUser().orElse(""));
        view.put("requester_ip_address", "");
        view.putObject("messages");
        view.putObject("response");
        view.putNull("session_id");
        view.put("status", succeeded(row) ? "success" : "failure");
        return view;
    }

    /** The model a row is shown under: its deployment's {@code litellm_params.model}, else its model group. */
    static String model(SpendRow row, ModelRegistry models) {
        return model(row, row.deploymentId().flatMap(models::find));
    }

    private static String model(SpendRow row, Optional<Deployment> deployment) {
        return deployment.map(d -> d.params().model()).orElse(row.modelGroup());
    }

    static boolean succeeded(SpendRow row) {
        return row.status() < 400;
    }

    /** LiteLLM's spend log metadata, as far as Sluice knows it; a failed call's HTTP status as its error code. */
    private static ObjectNode metadata(SpendRow row) {
        ObjectNode metadata = Json.MAPPER.createObjectNode();
        metadata.put("user_api_key", row.accounts().keyHash().orElse(null));
        metadata.put("user_api_key_team_id", row.accounts().teamId().orElse(null));
        metadata.put("user_api_key_user_id", row.accounts().userId().orElse(null));
        metadata.put("status", succeeded(row) ? "success" : "failure");
        ObjectNode usage = metadata.putObject("usage_object");
        usage.put("prompt_tokens", row.tokens().promptTokens());
        usage.put("completion_tokens", row.tokens().completionTokens());
        usage.put("total_tokens", row.tokens().totalTokens());
        usage.putObject("prompt_tokens_details").put("cached_tokens", row.tokens().cachedTokens());
        if (succeeded(row)) {
            metadata.putNull("error_information");
        } else {
            metadata.putObject("error_information").put("error_code", String.valueOf(row.status()));
        }
        return metadata;
    }

    /** The base URL with no user info, query or fragment; an unreadable one is left out whole. */
    static String withoutSecrets(String apiBase) {
        try {
            URI uri = new URI(apiBase);
            if (uri.getScheme() == null || uri.getHost() == null) {
                return "";
            }
            return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString();
        } catch (URISyntaxException e) {
            return "";
        }
    }
}
