package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Replaces LiteLLM's {@code os.environ/NAME} with the variable's value. The variables are
 * passed in rather than read from the process, so tests and {@code check-config} decide
 * what the environment is.
 */
final class EnvResolver {
    static final String PREFIX = "os.environ/";

    private final Map<String, String> env;
    private final Problems problems;
    /** Where an unset variable is noted instead of being a problem; null when it is a problem. */
    private final Set<String> unset;

    EnvResolver(Map<String, String> env, Problems problems) {
        this(Map.copyOf(env), problems, null);
    }

    private EnvResolver(Map<String, String> env, Problems problems, Set<String> unset) {
        this.env = env;
        this.problems = problems;
        this.unset = unset;
    }

    /**
     * A resolver for values a config may leave to a variable that is not set (a deployment's
     * credentials and endpoint, as LiteLLM starts without them): such a variable is added to
     * {@code unset} and its value reads as absent, without a problem.
     */
    EnvResolver tolerating(Set<String> unset) {
        return new EnvResolver(env, problems, unset);
    }

    /**
     * What a scalar stands for; empty when it names a variable that is not set (a problem
     * is recorded, or the variable noted when unset ones are tolerated). Maps, lists and
     * absent values pass through unchanged.
     */
    Optional<Resolved> resolve(ConfigNode node) {
        JsonNode value = node.value();
        if (!value.isTextual() || !value.textValue().startsWith(PREFIX)) {
            return Optional.of(new Resolved(value, null));
        }
        String name = value.textValue().substring(PREFIX.length());
        if (name.isBlank()) {
            problems.add(node, ShownValue.of(value, false), PREFIX + " followed by a variable name");
            return Optional.empty();
        }
        String resolved = env.get(name);
        if (resolved == null && unset != null) {
            unset.add(name);
            return Optional.empty();
        }
        if (resolved == null) {
            problems.add(node, PREFIX + name, "the environment variable " + name + " to be set");
            return Optional.empty();
        }
        return Optional.of(new Resolved(TextNode.valueOf(resolved), name));
    }

    /** Whether a variable is set to something; an empty variable counts as unset. */
    boolean isSet(String name) {
        String value = env.get(name);
        return value != null && !value.isEmpty();
    }

    /**
     * A scalar after resolution.
     *
     * <p>A value from the environment is shown in a problem only when it reads as a number
     * or a flag: anything else may be a credential that a mistaken reference (say
     * {@code api_base: os.environ/AZURE_API_KEY}) put where a plain value goes.
     *
     * @param variable the variable it came from, or null when it was written in the file
     */
    record Resolved(JsonNode value, String variable) {
        private static final Pattern HARMLESS = Pattern.compile("[-+]?[0-9][0-9._eE+-]{0,30}|(?i:true|false)");

        /** The value for a problem message, saying where it came from when that was a variable. */
        String shown(boolean secret) {
            return variable == null ? ShownValue.of(value, secret) : fromVariable(ShownValue.of(value, secret), secret);
        }

        /** Like {@link #shown}, for text whose content (not type) is wrong: shown bare. */
        String shownText() {
            return variable == null ? ShownValue.text(value) : fromVariable(ShownValue.text(value), false);
        }

        private String fromVariable(String shown, boolean secret) {
            boolean harmless = !secret && HARMLESS.matcher(value.asText().strip()).matches();
            return PREFIX + variable + " = " + (harmless ? shown : ShownValue.SECRET);
        }
    }
}
