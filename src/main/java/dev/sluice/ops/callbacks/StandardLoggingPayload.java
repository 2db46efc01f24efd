package dev.sluice.ops.callbacks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.time.Duration;
import java.util.List;

/**
 * LiteLLM's {@code StandardLoggingPayload} (its {@code litellm/types/utils.py}) for a record,
 * with its field names and types where Sluice has the value, and the batch the generic API
 * logger posts: a JSON array of them. Fields Sluice has no value for are written as LiteLLM
 * writes an unknown: {@code null}, an empty list, or 0.
 */
record StandardLoggingPayload(LoggedContent content) implements BatchFormat {
    @Override
    public byte[] body(List<CallRecord> batch) {
        ArrayNode array = LoggedContent.JSON.arrayNode(batch.size());
        batch.forEach(record -> array.add(of(record)));
        return Json.bytes(array);
    }

    ObjectNode of(CallRecord record) {
        CallRecord.Request request = record.request();
        CallRecord.Result result = record.result();
        CallRecord.Served served = record.served();
        CallRecord.Timing timing = record.timing();
        String model = served == null ? request.group() : served.model();
        ObjectNode payload = LoggedContent.JSON.objectNode();
        payload.put("id", record.callId());
        payload.put("trace_id", record.callId());
        payload.put("call_type", request.callType());
        payload.put("stream", request.stream());
        payload.put("response_cost", result.cost());
        payload.putNull("response_cost_failure_debug_info");
        payload.put("status", record.success() ? "success" : "failure");
        payload.put("custom_llm_provider", served == null ? null : served.provider());
        payload.put("total_tokens", result.promptTokens() + result.completionTokens());
        payload.put("prompt_tokens", result.promptTokens());
        payload.put("completion_tokens", result.completionTokens());
        payload.put("startTime", LoggedContent.epochSeconds(timing.start()));
        payload.put("endTime", LoggedContent.epochSeconds(timing.end()));
        payload.put("completionStartTime", LoggedContent.epochSeconds(timing.firstToken()));
        // LiteLLM's response_time: the whole call, or for a stream the time to its first token.
        Duration responseTime = Duration.between(timing.start(), request.stream() ? timing.firstToken() : timing.end());
        payload.put("response_time", responseTime.toNanos() / 1e9);
        payload.putObject("model_map_information").put("model_map_key", model).putNull("model_map_value");
        payload.put("model", model);
        payload.put("model_id", served == null ? null : served.deploymentId());
        payload.put("model_group", request.group());
        payload.put("api_base", served == null || served.apiBase() == null ? "" : LoggedContent.masked(served.apiBase()));
        payload.set("metadata", metadata(record));
        payload.put("cache_hit", record.cacheHit());
        payload.put("cache_key", record.cacheKey());
        payload.put("saved_cache_cost", 0.0);
        ArrayNode tags = payload.putArray("request_tags");
        request.tags().forEach(tags::add);
        payload.put("end_user", LoggedContent.masked(request.endUser()));
        payload.putNull("requester_ip_address");
        payload.set("messages", content.messages(record));
        payload.set("response", content.response(record));
        payload.put("error_str", result.error() == null ? null : LoggedContent.masked(result.error().message()));
        payload.set("error_information", errorInformation(result.error()));
        payload.set("model_parameters", LoggedContent.masked(request.parameters()));
        payload.set("hidden_params", hiddenParams(record));
        return payload;
    }

    /** LiteLLM's {@code StandardLoggingMetadata}: the caller's key by its hash, never in clear. */
    private static ObjectNode metadata(CallRecord record) {
        CallRecord.Key key = record.key();
        ObjectNode metadata = LoggedContent.JSON.objectNode();
        metadata.put("user_api_key_hash", key.hash());
        metadata.put("user_api_key_alias", key.alias());
        metadata.putNull("user_api_key_org_id");
        metadata.put("user_api_key_team_id", key.teamId());
        metadata.put("user_api_key_user_id", key.userId());
        metadata.put("user_api_key_team_alias", key.teamAlias());
        metadata.putNull("spend_logs_metadata");
        metadata.putNull("requester_ip_address");
        metadata.putNull("requester_metadata");
        return metadata;
    }

    private static ObjectNode errorInformation(CallRecord.Error error) {
        ObjectNode information = LoggedContent.JSON.objectNode();
        if (error == null) {
            return information;
        }
        information.put("error_code", error.code());
        information.put("error_class", error.type());
        information.put("llm_provider", error.provider());
        information.put("error_message", LoggedContent.masked(error.message()));
        return information;
    }

    private static ObjectNode hiddenParams(CallRecord record) {
        CallRecord.Served served = record.served();
        ObjectNode hidden = LoggedContent.JSON.objectNode();
        hidden.put("model_id", served == null ? null : served.deploymentId());
        hidden.put("cache_key", record.cacheKey());
        hidden.put("api_base", served == null ? null : LoggedContent.masked(served.apiBase()));
        hidden.put("response_cost", Double.toString(record.result().cost()));
        hidden.putNull("additional_headers");
        hidden.put("litellm_model_name", served == null ? null : served.provider() + "/" + served.model());
        return hidden;
    }
}
