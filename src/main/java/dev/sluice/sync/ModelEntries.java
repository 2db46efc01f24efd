package dev.sluice.sync;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.guardrail.Guardrails;
import dev.sluice.provider.Providers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@code model_list} entry given to the model API, or read back from the store, into
 * a deployment by the same rules as the config file, with this gateway's environment for
 * {@code os.environ/} references and its guardrails.
 */
public final class ModelEntries {

    /** Why an entry cannot be served, each problem named by its field. */
    public static final class Invalid extends Exception {
        private final List<String> problems;

        Invalid(List<String> problems) {
            super(String.join("; ", problems));
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }

    /** A deployment, and the keys of its entry that Sluice does not act on. */
    public record Parsed(Deployment deployment, List<String> ignoredKeys) {}

    private final Map<String, String> env;
    private final Providers providers;
    private final Guardrails guardrails;

    public ModelEntries(Map<String, String> env, Providers providers, Guardrails guardrails) {
        this.env = env;
        this.providers = providers;
        this.guardrails = guardrails;
    }

    /** The longest deployment id and group name the store keeps. */
    static final int MAX_NAME_LENGTH = 255;

    public Parsed parse(JsonNode entry) throws Invalid {
        List<String> tooLong = new ArrayList<>();
        checkLength(entry.path("model_name"), "model_name", tooLong);
        checkLength(entry.path("model_info").path("id"), "model_info.id", tooLong);
        if (!tooLong.isEmpty()) {
            throw new Invalid(tooLong);
        }
        ConfigLoader.AddedDeployment added;
        try {
            added = ConfigLoader.parseDeployment(entry, env, Providers.knownPrefixes(), guardrails.names());
        } catch (ConfigException e) {
            throw new Invalid(unprefixed(e.problems()));
        }
        List<String> misconfigured = providers.misconfigurations(List.of(added.deployment()));
        if (!misconfigured.isEmpty()) {
            throw new Invalid(unprefixed(misconfigured));
        }
        return new Parsed(added.deployment(), unprefixed(added.ignoredKeys()));
    }

    private static void checkLength(JsonNode value, String field, List<String> problems) {
        if (value.isTextual() && value.asText().length() > MAX_NAME_LENGTH) {
            problems.add(field + ": " + value.asText().length() + " characters (expected: at most " + MAX_NAME_LENGTH + ")");
        }
    }

    /** Problems name fields as in a one-entry {@code model_list}; the API's callers sent the entry alone. */
    private static List<String> unprefixed(List<String> problems) {
        List<String> fields = new ArrayList<>(problems.size());
        for (String problem : problems) {
            fields.add(problem.startsWith("model_list[0].") ? problem.substring("model_list[0].".length()) : problem);
        }
        return fields;
    }
}
