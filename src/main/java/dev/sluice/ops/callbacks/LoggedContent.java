package dev.sluice.ops.callbacks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ops.logging.SecretMask;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;

/**
 * What every callback payload does to a record's content before it leaves the gateway:
 * prompts and answers give way to LiteLLM's placeholders when message logging is off, and
 * every string is masked as the log masks its lines ({@link SecretMask}), so no key, bearer
 * token or password that a prompt, an answer or an error quotes reaches a receiver.
 */
final class LoggedContent {
    /** What LiteLLM writes in place of a prompt or an answer with {@code turn_off_message_logging}. */
    static final String REDACTED = "redacted-by-litellm";
    static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final boolean messageLogging;

    LoggedContent(boolean messageLogging) {
        this.messageLogging = messageLogging;
    }

    /** The prompt, masked; LiteLLM's one redacted user message when message logging is off. */
    JsonNode messages(CallRecord record) {
        if (!messageLogging) {
            ArrayNode redacted = JSON.arrayNode();
            redacted.addObject().put("role", "user").put("content", REDACTED);
            return redacted;
        }
        return masked(record.request().messages());
    }

    /**
     * The answer, masked; with message logging off, LiteLLM's {@code {"text": "redacted-by-litellm"}}
     * for a served call and null for a failed one (there is no answer to stand in for).
     */
    JsonNode response(CallRecord record) {
        if (!messageLogging) {
            return record.success() ? JSON.objectNode().put("text", REDACTED) : JSON.nullNode();
        }
        return masked(record.result().response());
    }

    /** A copy of {@code node} with every string, field names included, masked; the record's own tree is shared and left alone. */
    static JsonNode masked(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return JSON.nullNode();
        }
        if (node.isTextual()) {
            return JSON.textNode(SecretMask.mask(node.textValue()));
        }
        if (node.isObject()) {
            ObjectNode copy = JSON.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                copy.set(SecretMask.mask(field.getKey()), masked(field.getValue()));
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JSON.arrayNode(node.size());
            node.forEach(item -> copy.add(masked(item)));
            return copy;
        }
        return node; // numbers, booleans: nothing to mask, and immutable
    }

    /** A masked string, or null. */
    static String masked(String text) {
        return text == null ? null : SecretMask.mask(text);
    }

    /**
     * An instant as LiteLLM's payload writes times: seconds since the epoch as a float, to the
     * microsecond (written plain, {@code 1735689600.250000}, never in exponent form).
     */
    static BigDecimal epochSeconds(Instant instant) {
        return BigDecimal.valueOf(instant.getEpochSecond()).add(BigDecimal.valueOf(instant.getNano(), 9))
                .setScale(6, RoundingMode.DOWN);
    }
}
