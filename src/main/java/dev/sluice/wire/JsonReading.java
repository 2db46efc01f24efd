package dev.sluice.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.util.Optional;

/**
 * One request's JSON, read within its {@link JsonLimits}: the bodies it parses, and how many
 * tokens they came to, which is what their trees are charged against the body budget
 * ({@link #treeBytes()}). One per request; not thread-safe.
 */
public final class JsonReading {
    private final JsonLimits limits;
    private long tokens;

    public JsonReading(JsonLimits limits) {
        this.limits = limits;
    }

    /**
     * The value the body holds; empty when it holds none (no bytes, or only white space).
     * Refused with a 400 {@code invalid_json} when it is not JSON, a 400 {@code json_too_deep}
     * when it nests deeper than the limit, and a 413 {@code json_too_large} when it holds more
     * tokens than the limit: the parse stops there, so no such tree is ever built.
     */
    public Optional<JsonNode> parse(Buffer bytes) {
        if (bytes.length() == 0) {
            return Optional.empty();
        }
        try (JsonParser parser = limits.factory().createParser(JsonBody.stream(bytes))) {
            try {
                JsonNode root = limits.reader().readTree(parser);
                return root == null || root.isMissingNode() ? Optional.empty() : Optional.of(root);
            } catch (StreamConstraintsException e) {
                throw overLimit(parser, e);
            } catch (JsonProcessingException e) {
                throw JsonBody.unparsable(JsonProblems.describe(e));
            } finally {
                tokens += parser.currentTokenCount();
            }
        } catch (IOException e) {
            throw JsonBody.unparsable(e.getMessage());
        }
    }

    /** Tokens parsed so far, over every body this reading parsed. */
    public long tokens() {
        return tokens;
    }

    /** About the most heap the trees parsed so far hold, in bytes. */
    public long treeBytes() {
        return tokens * JsonLimits.TREE_BYTES_PER_TOKEN;
    }

    private ApiError overLimit(JsonParser parser, StreamConstraintsException e) {
        if (parser.currentTokenCount() >= limits.maxTokens()) {
            return new ApiError(413, "invalid_request_error", "The JSON body holds more than " + limits.maxTokens()
                    + " tokens (values, field names, and the starts and ends of objects and arrays), the most this gateway"
                    + " parses in one request (general_settings.max_json_tokens).", null, "json_too_large");
        }
        if (parser.getParsingContext() != null && parser.getParsingContext().getNestingDepth() >= limits.maxDepth()) {
            return ApiError.invalidRequest("The JSON body nests objects and arrays more than " + limits.maxDepth()
                    + " deep, the most this gateway parses (general_settings.max_json_depth).", null, "json_too_deep");
        }
        return JsonBody.unparsable(JsonProblems.describe(e));
    }
}
