package dev.sluice.ops.callbacks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * The body of a post to Langfuse's OpenTelemetry endpoint ({@code /api/public/otel/v1/traces})
 * for LiteLLM's {@code langfuse_otel} callback: OTLP/HTTP's JSON encoding of one span per call,
 * a Langfuse generation, with the GenAI attributes ({@link GenAiAttributes}) and Langfuse's own
 * ({@code langfuse.observation.*}, {@code langfuse.trace.*}). A call's trace and span ids are
 * derived from its call id, so a batch posted again names the same spans.
 */
record LangfuseOtelBatch(LoggedContent content, boolean messageLogging, String serviceName) implements BatchFormat {
    private static final int CLIENT = 3;
    private static final int STATUS_OK = 1;
    private static final int STATUS_ERROR = 2;

    @Override
    public byte[] body(List<CallRecord> batch) {
        ObjectNode body = LoggedContent.JSON.objectNode();
        ObjectNode resourceSpans = body.putArray("resourceSpans").addObject();
        ArrayNode resource = resourceSpans.putObject("resource").putArray("attributes");
        resource.add(attribute("service.name", LoggedContent.JSON.objectNode().put("stringValue", serviceName)));
        ObjectNode scope = resourceSpans.putArray("scopeSpans").addObject();
        scope.putObject("scope").put("name", "dev.sluice");
        ArrayNode spans = scope.putArray("spans");
        batch.forEach(record -> spans.add(span(record)));
        return Json.bytes(body);
    }

    private ObjectNode span(CallRecord record) {
        byte[] ids = digest(record.callId());
        ObjectNode span = LoggedContent.JSON.objectNode();
        span.put("traceId", HexFormat.of().formatHex(ids, 0, 16));
        span.put("spanId", HexFormat.of().formatHex(ids, 16, 24));
        span.put("name", LangfuseBatch.name(record));
        span.put("kind", CLIENT);
        span.put("startTimeUnixNano", Long.toString(nanos(record.timing().start())));
        span.put("endTimeUnixNano", Long.toString(nanos(record.timing().end())));
        ArrayNode attributes = span.putArray("attributes");
        langfuse(record).forEach((key, value) -> attributes.add(attribute(key.getKey(), value(value))));
        ObjectNode status = span.putObject("status");
        status.put("code", record.success() ? STATUS_OK : STATUS_ERROR);
        if (record.result().error() != null) {
            status.put("message", LoggedContent.masked(record.result().error().message()));
        }
        return span;
    }

    /** The GenAI attributes, and those Langfuse reads a generation from. */
    private Attributes langfuse(CallRecord record) {
        AttributesBuilder attributes = GenAiAttributes.of(record, false, true).toBuilder();
        CallRecord.Result result = record.result();
        attributes.put("langfuse.observation.type", "generation");
        attributes.put("langfuse.trace.name", LangfuseBatch.name(record));
        attributes.put("langfuse.observation.model.name", record.served() == null ? record.request().group() : record.served().model());
        attributes.put("langfuse.observation.input", content.messages(record).toString());
        attributes.put("langfuse.observation.output", content.response(record).toString());
        attributes.put("langfuse.observation.model.parameters", LoggedContent.masked(record.request().parameters()).toString());
        attributes.put("langfuse.observation.usage_details", LoggedContent.JSON.objectNode().put("input", result.promptTokens())
                .put("output", result.completionTokens()).put("total", result.promptTokens() + result.completionTokens()).toString());
        attributes.put("langfuse.observation.cost_details", LoggedContent.JSON.objectNode().put("total", result.cost()).toString());
        attributes.put("langfuse.observation.completion_start_time", record.timing().firstToken().toString());
        attributes.put("langfuse.observation.level", record.success() ? "DEFAULT" : "ERROR");
        if (result.error() != null) {
            attributes.put("langfuse.observation.status_message", LoggedContent.masked(result.error().message()));
        }
        String user = LangfuseBatch.user(record);
        if (user != null) {
            attributes.put("langfuse.user.id", LoggedContent.masked(user));
        }
        attributes.put(AttributeKey.stringArrayKey("langfuse.trace.tags"), record.request().tags());
        attributes.put("langfuse.trace.metadata.call_id", record.callId());
        attributes.put("langfuse.trace.metadata.model_group", record.request().group());
        if (record.key().hash() != null) {
            attributes.put("langfuse.trace.metadata.user_api_key_hash", record.key().hash());
        }
        return attributes.build();
    }

    private static ObjectNode attribute(String key, ObjectNode value) {
        ObjectNode attribute = LoggedContent.JSON.objectNode();
        attribute.put("key", key);
        attribute.set("value", value);
        return attribute;
    }

    /** An attribute's value in OTLP's JSON encoding: 64-bit integers as strings, lists as arrays. */
    private static ObjectNode value(Object value) {
        ObjectNode encoded = LoggedContent.JSON.objectNode();
        switch (value) {
            case String text -> encoded.put("stringValue", text);
            case Long number -> encoded.put("intValue", Long.toString(number));
            case Double number -> encoded.put("doubleValue", number);
            case Boolean flag -> encoded.put("boolValue", flag);
            case List<?> list -> {
                ArrayNode values = encoded.putObject("arrayValue").putArray("values");
                list.forEach(item -> values.add(value(item)));
            }
            default -> encoded.put("stringValue", String.valueOf(value));
        }
        return encoded;
    }

    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    private static byte[] digest(String callId) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(callId.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
