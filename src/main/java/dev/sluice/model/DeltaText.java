package dev.sluice.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The text one streamed event carries, read token by token: {@code choices[].delta.content}
 * (a string, or parts with {@code text}) and {@code choices[].text}, by choice. A stream's
 * answer is counted from every one of its events when the vendor reports no usage, so they
 * are not each built into a tree of every field only to read these.
 */
final class DeltaText {
    /** Reads one value out of the middle of an event: what follows it is the event's, not trailing input. */
    private static final ObjectReader PARTS = Json.MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private DeltaText() {}

    /** One choice's index and text parts, as read from its object. */
    private static final class Choice {
        int index;
        final List<String> parts = new ArrayList<>(2);
    }

    /**
     * Adds the text of the event {@code data} to its choices' texts; an event that is not a
     * JSON object adds nothing, not even what was read of it before the fault.
     */
    static void add(String data, Map<Integer, StringBuilder> byChoice) {
        List<Choice> choices = new ArrayList<>(1);
        try (JsonParser parser = Json.MAPPER.getFactory().createParser(data)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("choices") && value == JsonToken.START_ARRAY) {
                    readChoices(parser, choices);
                } else {
                    parser.skipChildren();
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                return;
            }
        } catch (IOException e) {
            return;
        }
        for (Choice choice : choices) {
            if (!choice.parts.isEmpty()) {
                StringBuilder text = byChoice.computeIfAbsent(choice.index, i -> new StringBuilder());
                choice.parts.forEach(text::append);
            }
        }
    }

    private static void readChoices(JsonParser parser, List<Choice> choices) throws IOException {
        int position = 0;
        for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
            if (element != JsonToken.START_OBJECT) {
                parser.skipChildren();
                position++;
                continue;
            }
            Choice choice = new Choice();
            choice.index = position++;
            String text = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "index" -> index(parser, value, choice);
                    case "delta" -> delta(parser, value, choice);
                    case "text" -> text = value == JsonToken.VALUE_STRING ? parser.getText() : skip(parser);
                    default -> parser.skipChildren();
                }
            }
            if (text != null) {
                choice.parts.add(text);
            }
            choices.add(choice);
        }
    }

    /** An index that fits an int, as a tree's {@code canConvertToInt} would take it; else the choice's position stands. */
    private static void index(JsonParser parser, JsonToken value, Choice choice) throws IOException {
        if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
            double number = parser.getDoubleValue();
            if (number >= Integer.MIN_VALUE && number <= Integer.MAX_VALUE) {
                choice.index = value == JsonToken.VALUE_NUMBER_INT ? parser.getIntValue() : (int) number;
            }
        }
    }

    private static void delta(JsonParser parser, JsonToken value, Choice choice) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken content = parser.nextToken();
            if (!field.equals("content")) {
                parser.skipChildren();
            } else if (content == JsonToken.VALUE_STRING) {
                choice.parts.add(parser.getText());
            } else if (content == JsonToken.START_ARRAY) {
                PromptText.content(PARTS.readTree(parser), choice.parts);
            } else {
                parser.skipChildren();
            }
        }
    }

    private static String skip(JsonParser parser) throws IOException {
        parser.skipChildren();
        return null;
    }
}
