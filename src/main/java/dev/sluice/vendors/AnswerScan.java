package dev.sluice.vendors;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.sluice.wire.Json;
import java.io.IOException;

/**
 * What the gateway must know of an OpenAI-shaped 2xx answer it relays as it came: that it is
 * one JSON object, and its {@code usage}. Read with a streaming parser that builds only the
 * usage, since building the whole answer's tree cost more than any other step of a call's
 * relay; the tree is built later only when something reads the answer's content (a
 * guardrail, a translation, counting tokens the answer did not report).
 *
 * <p>The scan checks what a full parse checks: tokens, strings (their UTF-8 included),
 * nesting, and nothing after the object.
 */
final class AnswerScan {
    /** Reads the usage in the middle of the answer: what follows it is the scan's to check. */
    private static final ObjectReader NESTED = Json.MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private AnswerScan() {}

    /**
     * The top-level {@code usage} of {@code bytes} ({@link MissingNode} when it has none; the
     * last one when named twice, as a full parse keeps), or null when they are JSON but not
     * an object.
     *
     * @throws IOException when they are not JSON
     */
    static JsonNode usage(byte[] bytes) throws IOException {
        try (JsonParser parser = Json.MAPPER.createParser(bytes)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                skipValue(parser);
                return null;
            }
            JsonNode usage = MissingNode.getInstance();
            for (JsonToken field = parser.nextToken(); field == JsonToken.FIELD_NAME; field = parser.nextToken()) {
                boolean isUsage = "usage".equals(parser.currentName());
                parser.nextToken();
                if (isUsage) {
                    usage = NESTED.readTree(parser);
                } else {
                    parser.skipChildren();
                }
            }
            if (parser.nextToken() != null) {
                throw new IOException("trailing data after the answer's JSON object");
            }
            return usage;
        }
    }

    /** Reads past a value that is not an object, so what follows it is checked too. */
    private static void skipValue(JsonParser parser) throws IOException {
        parser.skipChildren();
        if (parser.nextToken() != null) {
            throw new IOException("trailing data after the answer's JSON value");
        }
    }
}
