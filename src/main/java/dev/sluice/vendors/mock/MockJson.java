package dev.sluice.vendors.mock;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The mock's JSON codec. Replies are written straight to a generator rather than built as
 * trees, because the {@code ok} path is the benchmark's fast upstream.
 */
public final class MockJson {

    /** Writes one JSON document. */
    @FunctionalInterface
    public interface Document {
        void writeTo(JsonGenerator json) throws IOException;
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private MockJson() {}

    /** The body as a JSON tree, or empty when it is not JSON at all. */
    public static Optional<JsonNode> parse(Buffer body) {
        try {
            JsonNode node = MAPPER.readTree(body.getBytes());
            return Optional.ofNullable(node).filter(tree -> !tree.isMissingNode());
        } catch (IOException notJson) {
            return Optional.empty();
        }
    }

    public static byte[] bytes(JsonNode tree) {
        try {
            return MAPPER.writeValueAsBytes(tree);
        } catch (IOException cannotHappenInMemory) {
            throw new UncheckedIOException(cannotHappenInMemory);
        }
    }

    public static byte[] bytes(Document document) {
        try (ByteArrayBuilder out = new ByteArrayBuilder(512)) {
            try (JsonGenerator json = MAPPER.getFactory().createGenerator(out)) {
                document.writeTo(json);
            }
            return out.toByteArray();
        } catch (IOException cannotHappenInMemory) {
            throw new UncheckedIOException(cannotHappenInMemory);
        }
    }

    public static Buffer buffer(JsonNode tree) {
        return Buffer.buffer(bytes(tree));
    }

    public static Buffer buffer(Document document) {
        return Buffer.buffer(bytes(document));
    }
}
