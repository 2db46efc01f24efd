package dev.sluice.ops.logging;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The structure of a Sluice log line, read from the statement that made it. Sluice logs in
 * the form {@code event.name key={} key={}}:
 * <pre>{@code log.info("models.deployment_added group={} deployment={} provider={}", group, id, provider)}</pre>
 * The event is the line's first word when it is a dotted lower-case name
 * ({@code models.deployment_added}, and {@code dispatch.server_error} from a first {@code {}});
 * each field is the argument of a {@code {}} written right after {@code key=} (or
 * {@code key="}), named by that key, with its own type: a number stays a number. Fields come
 * from the arguments, never from re-parsing the formatted text, so a value holding spaces,
 * quotes or {@code =} is whole. A {@code {}} with no {@code key=} before it gives no field;
 * its value is still in the message.
 */
final class EventFields {
    /** A dotted lower-case name, then the end of the line or a space, {@code ;}, {@code :} or {@code ,}. */
    private static final Pattern EVENT = Pattern.compile("^([a-z][a-z0-9_]*(?:\\.[a-z0-9_]+)+)(?=$|[\\s;:,])");
    /** The key of a placeholder: {@code key=} or {@code key="} at the end of the text before it, after a space or the start. */
    private static final Pattern KEY = Pattern.compile("(?:^|[\\s(\\[,;])([A-Za-z_][A-Za-z0-9_]*)=\"?$");

    private EventFields() {}

    /** The event name, when the formatted message starts with one. */
    static Optional<String> event(String formattedMessage) {
        if (formattedMessage == null) {
            return Optional.empty();
        }
        Matcher matcher = EVENT.matcher(formattedMessage);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /**
     * The named arguments of {@code pattern}, in the order written; a key written twice keeps
     * its first value. Follows SLF4J's placeholder rules: {@code \{}} is a literal {@code {}}.
     */
    static Map<String, Object> fields(String pattern, Object[] arguments) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (pattern == null || arguments == null || arguments.length == 0) {
            return fields;
        }
        int argument = 0;
        int from = 0;
        int textStart = 0;
        while (argument < arguments.length) {
            int at = pattern.indexOf("{}", from);
            if (at < 0) {
                break;
            }
            if (escaped(pattern, at)) {
                from = at + 2;
                continue;
            }
            Matcher key = KEY.matcher(pattern.substring(textStart, at));
            if (key.find()) {
                fields.putIfAbsent(key.group(1), value(arguments[argument]));
            }
            argument++;
            from = at + 2;
            textStart = from;
        }
        return fields;
    }

    /** SLF4J: one backslash before {@code {}} escapes it; two are a backslash and a placeholder. */
    private static boolean escaped(String pattern, int at) {
        return at >= 1 && pattern.charAt(at - 1) == '\\' && !(at >= 2 && pattern.charAt(at - 2) == '\\');
    }

    /**
     * A number or a boolean as itself, a collection as a list of texts, anything else as the
     * text SLF4J puts in the message.
     */
    private static Object value(Object argument) {
        if (argument == null || argument instanceof Number || argument instanceof Boolean) {
            return argument;
        }
        if (argument instanceof Object[] array) {
            return Arrays.deepToString(array);
        }
        if (argument instanceof Collection<?> items) {
            return items.stream().map(item -> item == null ? "null" : String.valueOf(item)).toList();
        }
        return String.valueOf(argument);
    }
}
