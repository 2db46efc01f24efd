package dev.sluice.access;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.ApiError;
import dev.sluice.store.SpendRow;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A call's tags, as LiteLLM reads them: the request body's {@code tags} and
 * {@code metadata.tags}, the {@code x-litellm-tags} header (comma-separated), then the
 * caller's key's and team's {@code metadata.tags}; each tag once, in that order. They go
 * into the call's spend row and its day's rollups by tag.
 *
 * <p>A request's own tags are checked: a list of non-blank strings of at most
 * {@value SpendRow#MAX_TAG_LENGTH} characters, else a 400 naming the field. Tags an
 * administrator stored on a key or team are taken as far as they are text; the total is
 * capped at {@value SpendRow#MAX_TAGS}, a request's own first.
 */
public final class CallTags {
    public static final String HEADER = "x-litellm-tags";

    private CallTags() {}

    /**
     * @param header the {@code x-litellm-tags} header, or null
     * @param body   the request body in OpenAI's form
     * @throws ApiError 400 when the request's own tags are not a list of tags
     */
    public static List<String> of(String header, JsonNode body, Caller caller) {
        Set<String> tags = new LinkedHashSet<>();
        fromRequest(body.get("tags"), "tags", tags);
        fromRequest(body.path("metadata").get("tags"), "metadata.tags", tags);
        if (header != null) {
            for (String tag : header.split(",")) {
                if (!tag.isBlank()) {
                    add(tag.strip(), HEADER, tags);
                }
            }
        }
        if (caller instanceof Caller.Keyed keyed) {
            stored(keyed.key().metadataTags(), tags);
            keyed.team().ifPresent(team -> stored(team.metadataTags(), tags));
        }
        return List.copyOf(tags);
    }

    private static void fromRequest(JsonNode node, String field, Set<String> tags) {
        if (node == null || node.isNull()) {
            return;
        }
        if (!node.isArray()) {
            throw invalid(field, field + " must be a list of strings; got " + node.getNodeType().name().toLowerCase());
        }
        for (JsonNode tag : node) {
            if (!tag.isTextual()) {
                throw invalid(field, field + " must be a list of strings; it holds " + tag);
            }
            add(tag.textValue(), field, tags);
        }
    }

    private static void add(String tag, String field, Set<String> tags) {
        if (tag.isBlank() || tag.length() > SpendRow.MAX_TAG_LENGTH) {
            throw invalid(field, "each tag in " + field + " must be 1 to " + SpendRow.MAX_TAG_LENGTH
                    + " characters, not only spaces; got \"" + shortened(tag) + "\"");
        }
        tags.add(tag);
        if (tags.size() > SpendRow.MAX_TAGS) {
            throw invalid(field, "a call may carry at most " + SpendRow.MAX_TAGS + " tags, its key's and team's included");
        }
    }

    private static void stored(List<String> stored, Set<String> tags) {
        for (String tag : stored) {
            String text = tag.strip();
            if (tags.size() < SpendRow.MAX_TAGS && !text.isEmpty() && text.length() <= SpendRow.MAX_TAG_LENGTH) {
                tags.add(text);
            }
        }
    }

    private static String shortened(String tag) {
        return tag.length() <= 40 ? tag : tag.substring(0, 40) + "...";
    }

    private static ApiError invalid(String field, String message) {
        return ApiError.invalidRequest(message, field, "invalid_tags");
    }
}
