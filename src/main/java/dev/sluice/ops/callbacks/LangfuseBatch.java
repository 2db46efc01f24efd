package dev.sluice.ops.callbacks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.time.Instant;
import java.util.List;

/**
 * The body of a post to Langfuse's ingestion API ({@code POST /api/public/ingestion}): per
 * call, a {@code trace-create} and a {@code generation-create} event, named as LiteLLM's
 * Langfuse logger names them ({@code litellm-acompletion}). The trace and the generation take
 * the call id as their ids, and each event's own id is derived from it, so a batch posted
 * again after a failed attempt is deduplicated by Langfuse rather than counted twice.
 */
record LangfuseBatch(LoggedContent content) implements BatchFormat {
    @Override
    public byte[] body(List<CallRecord> batch) {
        ObjectNode body = LoggedContent.JSON.objectNode();
        ArrayNode events = body.putArray("batch");
        for (CallRecord record : batch) {
            JsonNode input = content.messages(record);
            JsonNode output = content.response(record);
            events.add(event(record.callId() + "-trace", "trace-create", record.timing().start(), trace(record, input, output)));
            events.add(event(record.callId() + "-generation", "generation-create", record.timing().end(),
                    generation(record, input, output)));
        }
        return Json.bytes(body);
    }

    private static ObjectNode event(String id, String type, Instant timestamp, ObjectNode body) {
        ObjectNode event = LoggedContent.JSON.objectNode();
        event.put("id", id);
        event.put("type", type);
        event.put("timestamp", timestamp.toString());
        event.set("body", body);
        return event;
    }

    private static ObjectNode trace(CallRecord record, JsonNode input, JsonNode output) {
        ObjectNode trace = LoggedContent.JSON.objectNode();
        trace.put("id", record.callId());
        trace.put("timestamp", record.timing().start().toString());
        trace.put("name", name(record));
        trace.put("userId", LoggedContent.masked(user(record)));
        trace.set("input", input);
        trace.set("output", output);
        ArrayNode tags = trace.putArray("tags");
        record.request().tags().forEach(tags::add);
        trace.set("metadata", metadata(record));
        return trace;
    }

    private static ObjectNode generation(CallRecord record, JsonNode input, JsonNode output) {
        CallRecord.Result result = record.result();
        CallRecord.Served served = record.served();
        ObjectNode generation = LoggedContent.JSON.objectNode();
        generation.put("id", record.callId());
        generation.put("traceId", record.callId());
        generation.put("name", name(record));
        generation.put("startTime", record.timing().start().toString());
        generation.put("endTime", record.timing().end().toString());
        generation.put("completionStartTime", record.timing().firstToken().toString());
        generation.put("model", served == null ? record.request().group() : served.model());
        generation.set("modelParameters", LoggedContent.masked(record.request().parameters()));
        generation.set("input", input);
        generation.set("output", output);
        long total = result.promptTokens() + result.completionTokens();
        generation.putObject("usage").put("input", result.promptTokens()).put("output", result.completionTokens())
                .put("total", total).put("unit", "TOKENS");
        generation.putObject("usageDetails").put("input", result.promptTokens()).put("output", result.completionTokens())
                .put("total", total);
        generation.putObject("costDetails").put("total", result.cost());
        generation.put("level", record.success() ? "DEFAULT" : "ERROR");
        if (result.error() != null) {
            generation.put("statusMessage", LoggedContent.masked(result.error().message()));
        }
        generation.set("metadata", metadata(record));
        return generation;
    }

    /** What LiteLLM's logger puts in a trace's metadata that Sluice knows: the key by its hash, never in clear. */
    private static ObjectNode metadata(CallRecord record) {
        ObjectNode metadata = LoggedContent.JSON.objectNode();
        metadata.put("model_group", record.request().group());
        if (record.served() != null) {
            metadata.put("model_id", record.served().deploymentId());
            metadata.put("custom_llm_provider", record.served().provider());
        }
        metadata.put("user_api_key_hash", record.key().hash());
        metadata.put("user_api_key_alias", record.key().alias());
        metadata.put("user_api_key_team_id", record.key().teamId());
        metadata.put("user_api_key_user_id", record.key().userId());
        metadata.put("status_code", record.result().status());
        metadata.put("cache_hit", record.cacheHit());
        return metadata;
    }

    /** LiteLLM's name for a call's trace and generation: {@code litellm-} and the call type. */
    static String name(CallRecord record) {
        return "litellm-" + record.request().callType();
    }

    /** Langfuse's user of a call: the key's user, else the body's {@code user}; null when neither. */
    static String user(CallRecord record) {
        return record.key().userId() != null ? record.key().userId() : record.request().endUser();
    }
}
