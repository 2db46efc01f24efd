package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.sluice.wire.ApiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A value of a JSON body (the team API, a request) or of a header: the first problem is a
 * 400 in OpenAI's error shape naming the field, {@code Invalid 'router_settings.timeout': 0
 * (expected: > 0).}
 */
public final class JsonWritten implements Written {
    private static final int SHOWN_LENGTH = 60;

    private final JsonNode value;
    private final String path;
    private final boolean numbersAsText;

    private JsonWritten(JsonNode value, String path, boolean numbersAsText) {
        this.value = value == null ? MissingNode.getInstance() : value;
        this.path = path;
        this.numbersAsText = numbersAsText;
    }

    /** A body's value, typed as JSON types it: {@code "3"} is text, not a number. */
    public static JsonWritten of(JsonNode value, String path) {
        return new JsonWritten(value, path, false);
    }

    /** A header's value: text, which may stand for a number. */
    public static JsonWritten header(String value, String name) {
        return new JsonWritten(value == null ? null : TextNode.valueOf(value), name + " header", true);
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public boolean isAbsent() {
        return value.isMissingNode() || value.isNull();
    }

    @Override
    public boolean isMap() {
        return value.isObject();
    }

    @Override
    public boolean isList() {
        return value.isArray();
    }

    @Override
    public List<Written> items() {
        List<Written> items = new ArrayList<>();
        for (int i = 0; value.isArray() && i < value.size(); i++) {
            items.add(new JsonWritten(value.get(i), path + "[" + i + "]", numbersAsText));
        }
        return items;
    }

    @Override
    public List<Map.Entry<String, Written>> entries() {
        List<Map.Entry<String, Written>> entries = new ArrayList<>();
        if (value.isObject()) {
            value.properties().forEach(entry -> entries.add(Map.entry(entry.getKey(),
                    new JsonWritten(entry.getValue(), path + "." + entry.getKey(), numbersAsText))));
        }
        return entries;
    }

    @Override
    public String shown() {
        return cut(value.toString());
    }

    @Override
    public Optional<Scalar> scalar() {
        if (isAbsent()) {
            return Optional.empty();
        }
        String shownText = value.isTextual() ? cut("'" + value.textValue() + "'") : shown();
        return Optional.of(new Scalar(value, shown(), shownText));
    }

    @Override
    public boolean numbersAsText() {
        return numbersAsText;
    }

    /** Refuses the value: the first problem ends the read. */
    @Override
    public void problem(String shown, String expected) {
        throw ApiError.invalidRequest("Invalid '" + path + "': " + shown + " (expected: " + expected + ").", path,
                "invalid_value");
    }

    /** Enough to recognise a value, never a whole pasted document. */
    private static String cut(String text) {
        return text.length() <= SHOWN_LENGTH ? text : text.substring(0, SHOWN_LENGTH) + "...";
    }
}
