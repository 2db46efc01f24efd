package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads config text into a Jackson tree, the way LiteLLM's {@code yaml.safe_load} reads it.
 *
 * <p>Design notes. Jackson's YAML tree reader turns an alias ({@code *defaults}) into the
 * anchor's name as a string and keeps a merge key ({@code <<: *defaults}) as an ordinary
 * key, so a LiteLLM config that shares params through anchors would load wrong without a
 * word. This class therefore composes the document with SnakeYAML, the parser underneath
 * jackson-dataformat-yaml (a port of PyYAML, with the same YAML 1.1 typing rules), and
 * builds the Jackson tree itself: aliases become copies of what they point at, merge keys
 * are merged (explicit keys win), and a key written twice in one map is an error rather
 * than a silent "last one wins". Everything after this class sees a plain Jackson tree.
 *
 * <p>Error messages carry the file name, line and column but never the offending line's
 * text, which may hold a credential.
 */
final class YamlTree {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String source;
    private final Map<Node, JsonNode> converted = new IdentityHashMap<>();
    private final Set<Node> inProgress = Collections.newSetFromMap(new IdentityHashMap<>());

    private YamlTree(String source) {
        this.source = source;
    }

    /**
     * The document as a tree; an empty document is an empty map.
     *
     * @param source how the text is named in errors, e.g. the file path
     */
    static JsonNode read(String text, String source) throws ConfigException {
        LoaderOptions options = new LoaderOptions();
        Node root;
        try {
            root = new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            throw syntaxError(source, e.getProblemMark(), describe(e));
        } catch (YAMLException e) {
            throw new ConfigException(List.of(source + ": not valid YAML: " + firstLine(e.getMessage())));
        }
        if (root == null) {
            return NODES.objectNode();
        }
        return new YamlTree(source).convert(root);
    }

    private JsonNode convert(Node node) throws ConfigException {
        JsonNode done = converted.get(node);
        if (done != null) {
            return done; // an alias: the tree never changes after reading, so sharing is safe
        }
        if (!inProgress.add(node)) {
            throw syntaxError(source, node.getStartMark(), "an alias refers to a node that contains it");
        }
        JsonNode result = switch (node) {
            case ScalarNode scalar -> scalar(scalar);
            case SequenceNode sequence -> sequence(sequence);
            case MappingNode mapping -> mapping(mapping);
            default -> throw syntaxError(source, node.getStartMark(), "unsupported YAML node");
        };
        inProgress.remove(node);
        converted.put(node, result);
        return result;
    }

    private ArrayNode sequence(SequenceNode sequence) throws ConfigException {
        ArrayNode array = NODES.arrayNode();
        for (Node item : sequence.getValue()) {
            array.add(convert(item));
        }
        return array;
    }

    private ObjectNode mapping(MappingNode mapping) throws ConfigException {
        Set<String> explicit = new LinkedHashSet<>();
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode().getTag().equals(Tag.MERGE)) {
                continue;
            }
            String key = key(tuple.getKeyNode());
            if (!explicit.add(key)) {
                throw syntaxError(source, tuple.getKeyNode().getStartMark(), "duplicate key \"" + key + "\"");
            }
        }
        ObjectNode object = NODES.objectNode();
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode().getTag().equals(Tag.MERGE)) {
                merge(object, tuple.getValueNode(), explicit);
            } else {
                object.set(key(tuple.getKeyNode()), convert(tuple.getValueNode()));
            }
        }
        return object;
    }

    /** YAML's merge key: copies keys the map does not set itself; earlier sources win. */
    private void merge(ObjectNode into, Node from, Set<String> explicit) throws ConfigException {
        List<Node> sources = from instanceof SequenceNode sequence ? sequence.getValue() : List.of(from);
        for (Node mergeSource : sources) {
            if (!(convert(mergeSource) instanceof ObjectNode merged)) {
                throw syntaxError(source, mergeSource.getStartMark(), "a merge key (<<) must refer to a map");
            }
            for (Map.Entry<String, JsonNode> entry : merged.properties()) {
                if (!explicit.contains(entry.getKey()) && !into.has(entry.getKey())) {
                    into.set(entry.getKey(), entry.getValue());
                }
            }
        }
    }

    private String key(Node keyNode) throws ConfigException {
        if (keyNode instanceof ScalarNode scalar) {
            return scalar.getValue();
        }
        throw syntaxError(source, keyNode.getStartMark(), "a map key must be a plain value, not a list or map");
    }

    /** Types a scalar by the tag YAML 1.1 resolved for it; what cannot be read as typed stays text. */
    private static JsonNode scalar(ScalarNode scalar) {
        String text = scalar.getValue();
        Tag tag = scalar.getTag();
        if (tag.equals(Tag.NULL)) {
            return NODES.nullNode();
        }
        if (tag.equals(Tag.BOOL)) {
            return NODES.booleanNode(switch (text.toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on", "y" -> true;
                default -> false;
            });
        }
        if (tag.equals(Tag.INT)) {
            BigInteger value = integer(text);
            return value == null ? NODES.textNode(text) : NODES.numberNode(value);
        }
        if (tag.equals(Tag.FLOAT)) {
            return decimal(text);
        }
        return NODES.textNode(text);
    }

    private static BigInteger integer(String text) {
        String digits = text.replace("_", "");
        int sign = 1;
        if (digits.startsWith("-") || digits.startsWith("+")) {
            sign = digits.startsWith("-") ? -1 : 1;
            digits = digits.substring(1);
        }
        try {
            BigInteger magnitude;
            if (digits.startsWith("0x")) {
                magnitude = new BigInteger(digits.substring(2), 16);
            } else if (digits.startsWith("0b")) {
                magnitude = new BigInteger(digits.substring(2), 2);
            } else if (digits.length() > 1 && digits.startsWith("0")) {
                magnitude = new BigInteger(digits.substring(1), 8);
            } else {
                magnitude = new BigInteger(digits);
            }
            return sign < 0 ? magnitude.negate() : magnitude;
        } catch (NumberFormatException e) {
            return null; // e.g. sexagesimal 1:30, which YAML 1.1 calls an int
        }
    }

    private static JsonNode decimal(String text) {
        String digits = text.replace("_", "");
        switch (digits.toLowerCase(Locale.ROOT)) {
            case ".inf", "+.inf" -> { return NODES.numberNode(Double.POSITIVE_INFINITY); }
            case "-.inf" -> { return NODES.numberNode(Double.NEGATIVE_INFINITY); }
            case ".nan" -> { return NODES.numberNode(Double.NaN); }
            default -> { }
        }
        try {
            return NODES.numberNode(new BigDecimal(digits));
        } catch (NumberFormatException e) {
            return NODES.textNode(text);
        }
    }

    private static String describe(MarkedYAMLException e) {
        String problem = e.getProblem() == null ? "syntax error" : e.getProblem();
        return e.getContext() == null ? problem : e.getContext() + ": " + problem;
    }

    private static ConfigException syntaxError(String source, Mark mark, String what) {
        String where = mark == null ? "" : " line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ":";
        return new ConfigException(List.of(source + ":" + where + " not valid YAML: " + firstLine(what)));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "syntax error";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
