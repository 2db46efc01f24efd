package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.EnvResolver.Resolved;
import dev.sluice.net.Cidr;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads one config value as the type its key calls for, after {@code os.environ/}
 * resolution. An absent value reads as empty without complaint; a wrong one reads as
 * empty and leaves a problem naming the path, the value and the rule.
 *
 * <p>A value of the wrong type is told the whole rule ({@code "abc" (expected: an integer
 * >= 0)}); a value of the right type outside its range is told just the bound
 * ({@code -1 (expected: >= 0)}). Numbers may come as text, because a variable is always
 * text and LiteLLM (through pydantic) accepts {@code "100"} where it wants 100.
 */
final class FieldReader {
    /** The longest duration that still fits in a long count of nanoseconds. */
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000_000L);
    private static final BigDecimal MAX_INT = BigDecimal.valueOf(Integer.MAX_VALUE);

    private final EnvResolver env;
    private final Problems problems;

    FieldReader(EnvResolver env, Problems problems) {
        this.env = env;
        this.problems = problems;
    }

    Problems problems() {
        return problems;
    }

    /** A reader that notes an unset variable in {@code unset} and reads it as absent: see {@link EnvResolver#tolerating}. */
    FieldReader tolerating(java.util.Set<String> unset) {
        return new FieldReader(env.tolerating(unset), problems);
    }

    /** The node as the router-settings vocabulary ({@link dev.sluice.config.RouterVocabulary}) reads it. */
    ConfigWritten written(ConfigNode node) {
        return new ConfigWritten(node, env, problems);
    }

    Optional<String> requiredString(ConfigNode node) {
        if (node.isAbsent()) {
            problems.missing(node, "a non-empty string");
            return Optional.empty();
        }
        return string(node);
    }

    Optional<String> string(ConfigNode node) {
        return resolve(node).flatMap(value -> text(node, value, false));
    }

    /** A credential: shown as {@code ****} in every problem, whatever it holds. */
    Optional<Secret> secret(ConfigNode node) {
        return resolve(node).flatMap(value -> text(node, value, true)).map(Secret::new);
    }

    Optional<String> httpUrl(ConfigNode node) {
        return resolve(node).flatMap(value -> text(node, value, false).filter(text -> {
            if (isHttpUrl(text)) {
                return true;
            }
            // The user info of a refused URL is often a password: the error names where it was, not what.
            problems.add(node, value.shownText().replaceFirst("(?<=//)[^/?#@]*@", "***@"),
                    "an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment");
            return false;
        }));
    }

    /** A string that must also pass {@code rule}, described by {@code ruleText} when it does not. */
    Optional<String> string(ConfigNode node, Predicate<String> rule, String ruleText) {
        return resolve(node).flatMap(value -> text(node, value, false).filter(text -> {
            if (rule.test(text)) {
                return true;
            }
            problems.add(node, value.shownText(), ruleText);
            return false;
        }));
    }

    /**
     * A regular expression in {@link Pattern} syntax, returned as written. One that does not
     * compile is told why; one that matches empty text is refused, because it would match
     * every text.
     */
    Optional<String> regex(ConfigNode node) {
        return resolve(node).flatMap(value -> text(node, value, false).filter(regex -> {
            try {
                if (Pattern.compile(regex).matcher("").find()) {
                    problems.add(node, value.shownText(), "a regular expression that does not match empty text");
                    return false;
                }
                return true;
            } catch (PatternSyntaxException e) {
                String where = e.getIndex() >= 0 ? " at index " + e.getIndex() : "";
                problems.add(node, value.shownText(), "a valid regular expression (" + e.getDescription() + where + ")");
                return false;
            }
        }));
    }

    Optional<String> oneOf(ConfigNode node, List<String> allowed) {
        return resolve(node).flatMap(value -> {
            if (value.value().isTextual() && allowed.contains(value.value().textValue())) {
                return Optional.of(value.value().textValue());
            }
            problems.add(node, value.shownText(), "one of " + String.join(", ", allowed));
            return Optional.empty();
        });
    }

    OptionalInt nonNegativeInt(ConfigNode node) {
        return integer(node, BigDecimal.ZERO, MAX_INT, "an integer >= 0", ">= 0");
    }

    OptionalInt positiveInt(ConfigNode node) {
        return integer(node, BigDecimal.ONE, MAX_INT, "an integer > 0", "> 0");
    }

    OptionalInt intAtLeast(ConfigNode node, int min) {
        return integer(node, BigDecimal.valueOf(min), MAX_INT, "an integer >= " + min, ">= " + min);
    }

    OptionalInt intBetween(ConfigNode node, int min, int max) {
        String range = "from " + min + " to " + max;
        return integer(node, BigDecimal.valueOf(min), BigDecimal.valueOf(max), "an integer " + range, range);
    }

    OptionalDouble nonNegativeNumber(ConfigNode node) {
        Optional<BigDecimal> number = resolve(node).flatMap(value -> bounded(node, value, "a number >= 0", false));
        return number.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(number.get().doubleValue());
    }

    Optional<BigDecimal> positiveNumber(ConfigNode node) {
        return resolve(node).flatMap(value -> bounded(node, value, "a number > 0", true));
    }

    /** Seconds as LiteLLM writes them (fractions allowed), e.g. {@code timeout: 0.5}. */
    Optional<Duration> positiveSeconds(ConfigNode node) {
        return seconds(node, "a number of seconds > 0", true);
    }

    Optional<Duration> nonNegativeSeconds(ConfigNode node) {
        return seconds(node, "a number of seconds >= 0", false);
    }

    Optional<Boolean> bool(ConfigNode node) {
        return resolve(node).flatMap(value -> {
            JsonNode json = value.value();
            if (json.isBoolean()) {
                return Optional.of(json.booleanValue());
            }
            String text = json.isTextual() ? json.textValue().strip().toLowerCase(Locale.ROOT) : "";
            if (text.equals("true") || text.equals("false")) {
                return Optional.of(text.equals("true"));
            }
            problems.add(node, value.shown(false), "true or false");
            return Optional.empty();
        });
    }

    Optional<List<String>> strings(ConfigNode node) {
        if (node.isAbsent()) {
            return Optional.empty();
        }
        if (!node.isList()) {
            problems.add(node, ShownValue.of(node.value(), false), "a list of non-empty strings");
            return Optional.empty();
        }
        List<String> strings = new ArrayList<>();
        for (ConfigNode item : node.items()) {
            if (item.isAbsent()) {
                problems.add(item, ShownValue.of(item.value(), false), "a non-empty string");
            } else {
                string(item).ifPresent(strings::add);
            }
        }
        return Optional.of(List.copyOf(strings));
    }

    /** A list whose items each pass {@code item}, which records a problem and gives null for a bad one. */
    /** A list of networks in CIDR form, each refused with {@code rule} and the reason when it is not one. */
    List<Cidr> networks(ConfigNode node, String rule) {
        return list(node, rule, entry -> string(entry).map(text -> {
            try {
                return Cidr.parse(text);
            } catch (IllegalArgumentException e) {
                problems.add(entry, ShownValue.text(entry.value()), rule + " (" + e.getMessage() + ")");
                return null;
            }
        }).orElse(null));
    }

    <T> List<T> list(ConfigNode node, String itemRule, Function<ConfigNode, T> item) {
        if (node.isAbsent()) {
            return List.of();
        }
        if (!node.isList()) {
            problems.add(node, ShownValue.of(node.value(), false), "a list, each item " + itemRule);
            return List.of();
        }
        List<T> items = new ArrayList<>();
        for (ConfigNode each : node.items()) {
            if (each.isAbsent()) {
                problems.missing(each, itemRule);
                continue;
            }
            T value = item.apply(each);
            if (value != null) {
                items.add(value);
            }
        }
        return List.copyOf(items);
    }

    /** A map kept as written (strings resolved), for settings Sluice passes on without reading. */
    Optional<Map<String, Object>> plainMap(ConfigNode node) {
        if (node.isAbsent()) {
            return Optional.empty();
        }
        if (!node.isMap()) {
            problems.add(node, ShownValue.of(node.value(), false), "a map");
            return Optional.empty();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) plain(node);
        return Optional.of(map);
    }

    private Object plain(ConfigNode node) {
        if (node.isMap()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.entries().forEach(entry -> map.put(entry.getKey(), plain(entry.getValue())));
            return Collections.unmodifiableMap(map);
        }
        if (node.isList()) {
            return Collections.unmodifiableList(node.items().stream().map(this::plain).toList());
        }
        JsonNode value = env.resolve(node).map(Resolved::value).orElse(node.value());
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToInt() ? (Object) value.intValue() : (Object) value.bigIntegerValue();
        }
        return value.isNumber() ? value.doubleValue() : null;
    }

    private Optional<String> text(ConfigNode node, Resolved value, boolean secret) {
        JsonNode json = value.value();
        // A number where a string goes is read as its text: redis_password: 123456 is a password.
        if ((json.isTextual() || json.isNumber()) && !json.asText().isEmpty()) {
            String text = json.asText();
            if (hasControlCharacter(text)) {
                // A key read from a file often ends in a newline; as a header value it would
                // fail every call, so it is refused here rather than at the first request.
                problems.add(node, value.shown(true), "text without control characters such as a line break");
                return Optional.empty();
            }
            return Optional.of(text);
        }
        problems.add(node, value.shown(secret), "a non-empty string");
        return Optional.empty();
    }

    private OptionalInt integer(ConfigNode node, BigDecimal min, BigDecimal max, String typeRule, String rangeRule) {
        Optional<Resolved> resolved = resolve(node);
        if (resolved.isEmpty()) {
            return OptionalInt.empty();
        }
        String shown = resolved.get().shown(false);
        BigDecimal number = number(resolved.get().value());
        if (number == null || number.stripTrailingZeros().scale() > 0) {
            problems.add(node, shown, typeRule);
            return OptionalInt.empty();
        }
        if (number.compareTo(min) < 0) {
            problems.add(node, shown, rangeRule);
            return OptionalInt.empty();
        }
        if (number.compareTo(max) > 0) {
            problems.add(node, shown, max.equals(MAX_INT) ? "<= " + Integer.MAX_VALUE : rangeRule);
            return OptionalInt.empty();
        }
        return OptionalInt.of(number.intValueExact());
    }

    /** A number >= 0, or > 0 when {@code positive}. */
    private Optional<BigDecimal> bounded(ConfigNode node, Resolved value, String typeRule, boolean positive) {
        BigDecimal number = number(value.value());
        if (number == null) {
            problems.add(node, value.shown(false), typeRule);
            return Optional.empty();
        }
        if (positive ? number.signum() <= 0 : number.signum() < 0) {
            problems.add(node, value.shown(false), positive ? "> 0" : ">= 0");
            return Optional.empty();
        }
        return Optional.of(number);
    }

    private Optional<Duration> seconds(ConfigNode node, String typeRule, boolean positive) {
        return resolve(node).flatMap(value -> bounded(node, value, typeRule, positive).flatMap(seconds -> {
            if (seconds.compareTo(MAX_SECONDS) > 0) {
                problems.add(node, value.shown(false), "<= " + MAX_SECONDS);
                return Optional.empty();
            }
            long whole = seconds.longValue();
            // Rounding up keeps a tiny positive timeout from becoming zero.
            long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9)
                    .setScale(0, RoundingMode.UP).longValue();
            return Optional.of(Duration.ofSeconds(whole, nanos));
        }));
    }

    /** A finite number written as a number or as text; null for anything else. */
    private static BigDecimal number(JsonNode value) {
        if (value.isNumber()) {
            boolean finite = value.isBigDecimal() || value.isIntegralNumber() || Double.isFinite(value.doubleValue());
            return finite ? value.decimalValue() : null;
        }
        if (value.isTextual()) {
            try {
                return new BigDecimal(value.textValue().strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** The value behind a node, or empty when it is absent or names an unset variable. */
    private Optional<Resolved> resolve(ConfigNode node) {
        return node.isAbsent() ? Optional.empty() : env.resolve(node);
    }

    private static boolean hasControlCharacter(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    private static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && !uri.getHost().isEmpty()
                    && uri.getPort() <= 65535 && uri.getRawUserInfo() == null
                    && uri.getRawQuery() == null && uri.getRawFragment() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
