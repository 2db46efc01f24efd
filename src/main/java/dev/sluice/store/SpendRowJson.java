package dev.sluice.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@link SpendRow} as one line of JSON, the form the dead-letter file keeps rows in, and the
 * spend buffer of earlier versions ({@link LegacySpendBuffer}) kept them in. Field names are the spend log's column names. The cost is a decimal
 * string and the start time an ISO-8601 string, so both come back exactly as they went in
 * (a JSON number would be read back as a double); absent values are left out.
 *
 * <p>{@code cache_hit} is a JSON boolean, not LiteLLM's {@code "True"} or {@code "False"}: these
 * lines use Sluice's own column names and types ({@code call_id}, a decimal-string
 * {@code cost}), not LiteLLM's spend-log schema. Lines written before rows had it read as
 * calls the cache did not answer.
 */
final class SpendRowJson {
    private SpendRowJson() {}

    static ObjectNode node(SpendRow row) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("call_id", row.callId());
        row.accounts().keyHash().ifPresent(value -> node.put("key_hash", value));
        row.accounts().teamId().ifPresent(value -> node.put("team_id", value));
        row.accounts().userId().ifPresent(value -> node.put("user_id", value));
        node.put("model_group", row.modelGroup());
        row.deploymentId().ifPresent(value -> node.put("deployment_id", value));
        node.put("prompt_tokens", row.tokens().promptTokens());
        node.put("completion_tokens", row.tokens().completionTokens());
        node.put("total_tokens", row.tokens().totalTokens());
        node.put("cached_tokens", row.tokens().cachedTokens());
        node.put("cost", row.cost().toPlainString());
        node.put("status", row.status());
        node.put("duration_ms", row.durationMs());
        node.put("started_at", row.startedAt().toString());
        row.accounts().endUser().ifPresent(value -> node.put("end_user", value));
        if (!row.tags().isEmpty()) {
            row.tags().forEach(node.putArray("tags")::add);
        }
        node.put("cache_hit", row.cacheHit());
        row.cacheKey().ifPresent(value -> node.put("cache_key", value));
        return node;
    }

    /** The rows as JSON lines, each ended by {@code \n}. */
    static byte[] lines(List<SpendRow> rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(rows.size() * 320);
        for (SpendRow row : rows) {
            out.writeBytes(line(node(row)));
        }
        return out.toByteArray();
    }

    /** One JSON object and its {@code \n}. */
    static byte[] line(ObjectNode node) {
        byte[] json = Json.bytes(node);
        byte[] line = new byte[json.length + 1];
        System.arraycopy(json, 0, line, 0, json.length);
        line[json.length] = '\n';
        return line;
    }

    /**
     * Reads a line written by {@link #lines}, without its {@code \n}.
     *
     * @throws IOException when it is not JSON, or a field is missing or holds a value a
     *                     spend row cannot have
     */
    static SpendRow read(byte[] line) throws IOException {
        JsonNode node = Json.parse(line);
        if (!node.isObject()) {
            throw new IOException("not a JSON object");
        }
        try {
            return new SpendRow(
                    text(node, "call_id"),
                    new SpendAccounts(optionalText(node, "key_hash"), optionalText(node, "team_id"),
                            optionalText(node, "user_id"), optionalText(node, "end_user")),
                    text(node, "model_group"),
                    optionalText(node, "deployment_id"),
                    new SpendTokens(integer(node, "prompt_tokens"), integer(node, "completion_tokens"),
                            integer(node, "total_tokens"), node.has("cached_tokens") ? integer(node, "cached_tokens") : 0),
                    new BigDecimal(text(node, "cost")),
                    Math.toIntExact(integer(node, "status")),
                    integer(node, "duration_ms"),
                    Instant.parse(text(node, "started_at")),
                    tags(node),
                    node.has("cache_hit") && bool(node, "cache_hit"),
                    optionalText(node, "cache_key"));
        } catch (IllegalArgumentException | ArithmeticException | DateTimeParseException e) {
            // NumberFormatException is an IllegalArgumentException, as are SpendRow's own refusals.
            throw new IOException(e.getMessage(), e);
        }
    }

    /** The row's tags; lines written before rows had tags have none. */
    private static List<String> tags(JsonNode node) throws IOException {
        JsonNode tags = node.path("tags");
        if (tags.isMissingNode()) {
            return List.of();
        }
        if (!tags.isArray()) {
            throw new IOException("tags: not a list");
        }
        List<String> values = new ArrayList<>(tags.size());
        for (JsonNode tag : tags) {
            if (!tag.isTextual()) {
                throw new IOException("tags: " + tag + " is not text");
            }
            values.add(tag.textValue());
        }
        return values;
    }

    private static String text(JsonNode node, String field) throws IOException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IOException(field + ": " + (value == null ? "missing" : value) + " (expected: a string)");
        }
        return value.textValue();
    }

    private static Optional<String> optionalText(JsonNode node, String field) throws IOException {
        return node.has(field) ? Optional.of(text(node, field)) : Optional.empty();
    }

    private static boolean bool(JsonNode node, String field) throws IOException {
        JsonNode value = node.get(field);
        if (!value.isBoolean()) {
            throw new IOException(field + ": " + value + " (expected: true or false)");
        }
        return value.booleanValue();
    }

    private static long integer(JsonNode node, String field) throws IOException {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IOException(field + ": " + (value == null ? "missing" : value) + " (expected: an integer)");
        }
        return value.longValue();
    }
}
