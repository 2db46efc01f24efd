package dev.sluice.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Mutations of a valid JSON request body, drawn from a seeded random: a value of a field
 * replaced by one of a list of awkward values (wrong types, extremes, NUL, lone surrogates,
 * environment references, deep nesting, numbers JSON allows and doubles do not), a field
 * dropped or added, or the bytes themselves cut, flipped or doubled.
 */
final class Mutator {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** A value written into the tree and swapped for raw text once serialised: text no tree can hold. */
    private static final String RAW = "@@raw-value@@";

    /** Values written as they are, some of them not JSON at all. */
    private static final List<String> RAW_VALUES = List.of("NaN", "Infinity", "-Infinity", "1e309", "-1e309", "1e-400",
            "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "0.1e1", "-0", "00", "01",
            "\"\\ud800\"", "\"\\udc00x\"", "\"\\u0000\"", "\"a\\u0000b\"", "tru", "nul", "[", "{", "\"", "'single'",
            "[".repeat(5_000) + "]".repeat(5_000), "{\"a\":".repeat(3_000) + "1" + "}".repeat(3_000));

    private final Random random;
    /** The raw text the current mutation put in place of {@link #RAW}, if any. */
    private String raw;

    Mutator(Random random) {
        this.random = random;
    }

    /** One mutation of {@code body}, as bytes. */
    byte[] mutate(ObjectNode body) {
        int kind = random.nextInt(10);
        if (kind < 2) {
            return bytes(body.toString(), kind);
        }
        raw = null;
        ObjectNode copy = body.deepCopy();
        List<Place> places = new ArrayList<>();
        collect(copy, places);
        Place place = places.get(random.nextInt(places.size()));
        switch (kind) {
            case 2, 3, 4, 5 -> place.set(awkward());
            case 6 -> place.remove();
            case 7 -> place.parentObject().ifPresentOrElse(parent -> parent.set(fieldName(), awkward()), () -> place.set(awkward()));
            default -> place.set(awkward());
        }
        return serialised(copy).getBytes(StandardCharsets.UTF_8);
    }

    /** A mutated query value: bad percent-encoding, NUL, very long, or plain odd text. */
    String queryValue() {
        return switch (random.nextInt(8)) {
            case 0 -> "%ZZ";
            case 1 -> "%";
            case 2 -> "%00";
            case 3 -> "a%00b";
            case 4 -> "x".repeat(10_000);
            case 5 -> "%E2%82";
            case 6 -> "os.environ%2FHOME";
            default -> "%F0%9F%98%80";
        };
    }

    private byte[] bytes(String json, int kind) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0) {
            return bytes;
        }
        if (kind == 0) {
            byte[] cut = new byte[random.nextInt(bytes.length)];
            System.arraycopy(bytes, 0, cut, 0, cut.length);
            return cut;
        }
        byte[] flipped = bytes.clone();
        for (int i = 0; i < 1 + random.nextInt(3); i++) {
            flipped[random.nextInt(flipped.length)] = (byte) random.nextInt(256);
        }
        return flipped;
    }

    private JsonNode awkward() {
        return switch (random.nextInt(22)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(-1);
            case 3 -> NODES.numberNode(0);
            case 4 -> NODES.numberNode(Long.MAX_VALUE);
            case 5 -> NODES.numberNode(1.5);
            case 6 -> NODES.textNode("");
            case 7 -> NODES.textNode("os.environ/HOME");
            case 8 -> NODES.textNode("x".repeat(1 + random.nextInt(200_000)));
            case 9 -> NODES.textNode("\u0000");
            case 10 -> NODES.textNode("\ud83d\ude00 é \u202e");
            case 11 -> NODES.objectNode();
            case 12 -> NODES.arrayNode();
            case 13 -> nested(1 + random.nextInt(900)); // deeper than Jackson writes: see the raw values
            case 14 -> NODES.arrayNode().add(NODES.nullNode()).add(1).add("x");
            case 15 -> NODES.textNode("http://169.254.169.254/latest/meta-data");
            case 16 -> NODES.textNode("-1");
            case 17 -> NODES.objectNode().put("", "").put("\u0000", 1);
            default -> {
                raw = RAW_VALUES.get(random.nextInt(RAW_VALUES.size()));
                yield NODES.textNode(RAW);
            }
        };
    }

    private JsonNode nested(int depth) {
        JsonNode node = NODES.textNode("deep");
        for (int i = 0; i < depth; i++) {
            node = i % 2 == 0 ? NODES.arrayNode().add(node) : NODES.objectNode().set("a", node);
        }
        return node;
    }

    private String fieldName() {
        return switch (random.nextInt(5)) {
            case 0 -> "";
            case 1 -> "\u0000";
            case 2 -> "x".repeat(5_000);
            case 3 -> "__proto__";
            default -> "extra_" + random.nextInt(100);
        };
    }

    /** The tree as JSON, with the raw value put in as written. */
    private String serialised(JsonNode tree) {
        String json = tree.toString();
        return raw == null ? json : json.replace("\"" + RAW + "\"", raw);
    }

    /** Where in the tree a mutation lands: a field of an object, an element of an array, or the root. */
    private record Place(JsonNode parent, String field, int index) {
        void set(JsonNode value) {
            if (parent instanceof ObjectNode object) {
                object.set(field, value);
            } else if (parent instanceof ArrayNode array) {
                array.set(index, value);
            }
        }

        void remove() {
            if (parent instanceof ObjectNode object) {
                object.remove(field);
            } else if (parent instanceof ArrayNode array) {
                array.remove(index);
            }
        }

        java.util.Optional<ObjectNode> parentObject() {
            return parent instanceof ObjectNode object ? java.util.Optional.of(object) : java.util.Optional.empty();
        }
    }

    private static void collect(JsonNode node, List<Place> places) {
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                places.add(new Place(object, field.getKey(), -1));
                collect(field.getValue(), places);
            }
            if (object.isEmpty()) {
                places.add(new Place(object, "added", -1));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                places.add(new Place(array, null, i));
                collect(array.get(i), places);
            }
        }
    }
}
