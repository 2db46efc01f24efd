package dev.sluice.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The one Jackson mapper of the process, and the conversions between trees and buffers. */
public final class Json {
    /**
     * Request bodies are bounded by {@code max_request_size_mb}, not by Jackson's default
     * string limit (20 MB, smaller than a large base64 image); trailing data after the JSON
     * value makes the body malformed.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Json() {}

    public static Buffer buffer(JsonNode node) {
        try {
            return Buffer.buffer(MAPPER.writeValueAsBytes(node));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses bytes as JSON; throws {@link IOException} with the parser's location on bad input. */
    public static JsonNode parse(byte[] bytes) throws IOException {
        return MAPPER.readTree(bytes);
    }

    /**
     * A body parsed as JSON; empty when it is not JSON, for readers to whom a body they cannot
     * read is simply not the answer they look for.
     */
    public static Optional<JsonNode> parseOrEmpty(Buffer body) {
        try {
            return Optional.ofNullable(parse(body.getBytes()));
        } catch (IOException notJson) {
            return Optional.empty();
        }
    }

    /** The text entries of {@code list}, in order; none when it is missing or not a list. */
    public static List<String> texts(JsonNode list) {
        if (list == null || !list.isArray()) {
            return List.of();
        }
        List<String> texts = new ArrayList<>(list.size());
        for (JsonNode entry : list) {
            if (entry.isTextual()) {
                texts.add(entry.textValue());
            }
        }
        return texts;
    }
}
