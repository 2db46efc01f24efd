package dev.sluice.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.SpendRow;
import dev.sluice.wire.Json;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A call's tags, as LiteLLM reads them: the request body's {@code tags} and
 * {@code metadata.tags}, the {@code x-litellm-tags} header (comma-separated), then the
 * caller's key's and team's {@code metadata.tags}; each tag once, in that order. They go
 * into the call's spend row and its day's rollups by tag.
 *
 * <p>As in LiteLLM, what is not a tag is passed over rather than refused: {@code metadata} is
 * the caller's own string map in OpenAI's API, so a {@code metadata.tags} that is a string is
 * a valid request. Taken are the text entries of a list, stripped, of 1 to
 * {@value SpendRow#MAX_TAG_LENGTH} characters, at most {@value SpendRow#MAX_TAGS} in all.
 */
public final class CallTags {
    public static final String HEADER = "x-litellm-tags";

    private CallTags() {}

    /**
     * @param header the {@code x-litellm-tags} header, or null
     * @param body   the request body in OpenAI's form
     */
    public static List<String> of(String header, JsonNode body, Caller caller) {
        Set<String> tags = new LinkedHashSet<>();
        Json.texts(body.get("tags")).forEach(tag -> add(tag, tags));
        Json.texts(body.path("metadata").get("tags")).forEach(tag -> add(tag, tags));
        if (header != null) {
            for (String tag : header.split(",")) {
                add(tag, tags);
            }
        }
        if (caller instanceof Caller.Keyed keyed) {
            keyed.key().metadataTags().forEach(tag -> add(tag, tags));
            keyed.team().ifPresent(team -> team.metadataTags().forEach(tag -> add(tag, tags)));
        }
        return tags.isEmpty() ? List.of() : List.copyOf(tags);
    }

    private static void add(String tag, Set<String> tags) {
        String text = tag.strip();
        if (tags.size() < SpendRow.MAX_TAGS && !text.isEmpty() && text.length() <= SpendRow.MAX_TAG_LENGTH) {
            tags.add(text);
        }
    }
}
