package dev.sluice.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * How large a JSON request body may grow once parsed. The bytes of a body are bounded
 * elsewhere; what they parse into is bounded here, since a body of a few megabytes of
 * {@code {},{},…} is a tree of a million nodes, ten to fifty times its size in the heap.
 *
 * <p>Jackson stops the parse the moment a limit is passed, so a body over them never becomes
 * a tree: nesting deeper than {@code maxDepth} is a 400, more than {@code maxTokens} tokens a
 * 413 ({@link JsonReading}). A token is a value, a field name, or the start or end of an object
 * or array; a parsed token holds at most about {@link #TREE_BYTES_PER_TOKEN} bytes of tree
 * (measured: an empty object, two tokens, 86 bytes; a short string 68; an object of one
 * field, four tokens, 207), which is what a parsed body is charged against the body budget.
 */
public final class JsonLimits {
    /** {@code max_json_depth}'s default: far deeper than any tool schema or conversation nests. */
    public static final int DEFAULT_MAX_DEPTH = 128;
    /**
     * {@code max_json_tokens}' default: a 200 KB agent conversation with dozens of tools is
     * 10,000 to 30,000 tokens; 250,000 at most holds about 16 MB of tree while it is parsed.
     */
    public static final long DEFAULT_MAX_TOKENS = 250_000;
    /** What a parsed token is charged against the body budget, in bytes of heap. */
    public static final long TREE_BYTES_PER_TOKEN = 64;

    public static final JsonLimits DEFAULTS = new JsonLimits(DEFAULT_MAX_DEPTH, DEFAULT_MAX_TOKENS);

    private final int maxDepth;
    private final long maxTokens;
    private final ObjectReader reader;
    private final JsonFactory factory;

    public JsonLimits(int maxDepth, long maxTokens) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth: " + maxDepth + " (expected: >= 1)");
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens: " + maxTokens + " (expected: >= 1)");
        }
        this.maxDepth = maxDepth;
        this.maxTokens = maxTokens;
        // Strings are bounded by the body's size (max_request_size_mb), not by Jackson's 20 MB
        // default, which is smaller than a large base64 image.
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength(Integer.MAX_VALUE)
                        .maxNestingDepth(maxDepth)
                        .maxTokenCount(maxTokens)
                        .build())
                .build();
        this.reader = JsonMapper.builder(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build().reader();
    }

    public int maxDepth() {
        return maxDepth;
    }

    public long maxTokens() {
        return maxTokens;
    }

    JsonFactory factory() {
        return factory;
    }

    ObjectReader reader() {
        return reader;
    }

    @Override
    public String toString() {
        return "JsonLimits[maxDepth=" + maxDepth + ", maxTokens=" + maxTokens + "]";
    }
}
