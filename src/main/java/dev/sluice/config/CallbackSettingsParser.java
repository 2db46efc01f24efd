package dev.sluice.config;

import com.fasterxml.jackson.databind.node.TextNode;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the logging callbacks of {@code litellm_settings}: {@code success_callback},
 * {@code failure_callback} and {@code callbacks}, each a list of names or a single name (as
 * LiteLLM also takes {@code callbacks}), and {@code turn_off_message_logging}.
 *
 * <p>A name Sluice acts on ({@link LoggingCallback}) must find the variables its logger needs
 * set, or start-up fails naming where the callback was written, as LiteLLM's logger refuses
 * to start without them; any other name is listed among the keys not acted on.
 */
final class CallbackSettingsParser {
    static final String GENERIC_ENDPOINT = "GENERIC_LOGGER_ENDPOINT";
    static final String LANGFUSE_HOST = "LANGFUSE_HOST";
    static final String LANGFUSE_OTEL_HOST = "LANGFUSE_OTEL_HOST";
    private static final String URL_RULE = "an absolute http or https URL with a host";

    private final FieldReader read;
    private final IgnoredKeys ignored;
    private final EnvResolver env;
    private final Set<LoggingCallback> checked = EnumSet.noneOf(LoggingCallback.class);

    CallbackSettingsParser(FieldReader read, IgnoredKeys ignored, EnvResolver env) {
        this.read = read;
        this.ignored = ignored;
        this.env = env;
    }

    CallbackSettings parse(Section litellm) {
        Set<LoggingCallback> success = names(litellm.take("success_callback"));
        Set<LoggingCallback> failure = names(litellm.take("failure_callback"));
        Set<LoggingCallback> both = names(litellm.take("callbacks"));
        boolean turnedOff = read.bool(litellm.take("turn_off_message_logging")).orElse(false);
        success.addAll(both);
        failure.addAll(both);
        return new CallbackSettings(success, failure, !turnedOff);
    }

    private Set<LoggingCallback> names(ConfigNode node) {
        Set<LoggingCallback> named = EnumSet.noneOf(LoggingCallback.class);
        if (node.isAbsent()) {
            return named;
        }
        if (node.isList()) {
            node.items().forEach(item -> name(item).ifPresent(named::add));
        } else if (node.isMap()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a list of callback names, or one name");
        } else {
            name(node).ifPresent(named::add);
        }
        return named;
    }

    /** The callback an item names when Sluice acts on it; any other name is listed as not acted on. */
    private Optional<LoggingCallback> name(ConfigNode item) {
        if (item.isAbsent() || item.isMap() || item.isList()) {
            read.problems().add(item, ShownValue.of(item.value(), false), "a callback name");
            return Optional.empty();
        }
        Optional<String> name = read.string(item);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        Optional<LoggingCallback> callback = LoggingCallback.named(name.get());
        if (callback.isEmpty()) {
            ignored.notActedOn(item);
            return Optional.empty();
        }
        if (checked.add(callback.get())) {
            checkEnvironment(item, callback.get());
        }
        return callback;
    }

    /** The variables a callback needs, each read as if written {@code os.environ/NAME} where the callback is named. */
    private void checkEnvironment(ConfigNode item, LoggingCallback callback) {
        for (String variable : callback.requiredVariables()) {
            ConfigNode reference = fromVariable(item, variable);
            if (variable.equals(GENERIC_ENDPOINT)) {
                read.string(reference, CallbackSettingsParser::isHttpUrl, URL_RULE);
            } else {
                read.secret(reference);
            }
        }
        for (String host : List.of(LANGFUSE_OTEL_HOST, LANGFUSE_HOST)) {
            boolean readsHost = callback == LoggingCallback.LANGFUSE_OTEL
                    || callback == LoggingCallback.LANGFUSE && host.equals(LANGFUSE_HOST);
            if (readsHost && env.isSet(host)) {
                read.string(fromVariable(item, host), CallbackSettingsParser::isHttpUrl, URL_RULE);
            }
        }
    }

    private static ConfigNode fromVariable(ConfigNode item, String variable) {
        return item.withValue(TextNode.valueOf(EnvResolver.PREFIX + variable));
    }

    static boolean isHttpUrl(String text) {
        try {
            URI uri = URI.create(text.strip());
            return uri.getHost() != null && List.of("http", "https").contains(String.valueOf(uri.getScheme()).toLowerCase());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
