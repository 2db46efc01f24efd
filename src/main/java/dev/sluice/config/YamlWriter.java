package dev.sluice.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Writes block-style YAML line by line, with trailing comments (which Jackson's YAML
 * writer cannot do), quoting a scalar only when it would otherwise read back as
 * something else.
 */
final class YamlWriter {
    /** Text YAML reads back as the same text when written without quotes. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_.\\-/]*|https?://[A-Za-z0-9_.\\-/:%?=&~+@]*");
    /** Words YAML 1.1 (PyYAML, so LiteLLM) would read as a flag or null. */
    private static final Set<String> RESERVED = Set.of("true", "false", "yes", "no", "on", "off", "y", "n", "null");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StringBuilder out = new StringBuilder();

    YamlWriter comment(int indent, String text) {
        return line(indent, "# " + text, null);
    }

    /** {@code key: value}, where value is already YAML (see the static helpers). */
    YamlWriter entry(int indent, String key, String value, String comment) {
        return line(indent, string(key) + ": " + value, comment);
    }

    /** {@code key:} opening a nested block. */
    YamlWriter open(int indent, String key, String comment) {
        return line(indent, string(key) + ":", comment);
    }

    /** {@code - key: value}, the first line of a list item that is a map. */
    YamlWriter item(int indent, String key, String value) {
        return line(indent, "- " + string(key) + ": " + value, null);
    }

    /** {@code - value}. */
    YamlWriter item(int indent, String value) {
        return line(indent, "- " + value, null);
    }

    private YamlWriter line(int indent, String content, String comment) {
        out.append("  ".repeat(indent)).append(content);
        if (comment != null) {
            out.append("  # ").append(comment);
        }
        out.append('\n');
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    static String string(String text) {
        boolean plain = PLAIN.matcher(text).matches() && !RESERVED.contains(text.toLowerCase(Locale.ROOT));
        return plain ? text : TextNode.valueOf(text).toString(); // a JSON string is a YAML double-quoted scalar
    }

    static String strings(List<String> texts) {
        return texts.stream().map(YamlWriter::string).collect(Collectors.joining(", ", "[", "]"));
    }

    /** Seconds, as LiteLLM writes durations: {@code 0.5}, {@code 600}. */
    static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNano(), 9))
                .stripTrailingZeros().toPlainString();
    }

    static String number(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** A value of any shape in flow style; JSON is YAML. */
    static String flow(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a config value", e); // plain maps, lists and scalars always write
        }
    }
}
