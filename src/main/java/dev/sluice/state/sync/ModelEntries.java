package dev.sluice.state.sync;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.call.guardrail.Guardrails;
import dev.sluice.config.AmbientCredentials;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.vendors.BorrowedCredential;
import dev.sluice.vendors.Providers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a {@code model_list} entry given to the model API, or read back from the store, into
 * a deployment by the same rules as the config file, with this gateway's guardrails. Unlike
 * the file, such an entry may name only the variables listed in
 * {@code general_settings.admin_allowed_env_vars} as {@code os.environ/NAME} (see
 * {@link EnvReferences}); a stored entry that names another, written before that rule or
 * before the list changed, is refused the same way and so is not served. Nor may it draw on
 * the gateway's other credentials ({@link AmbientCredentials}): its provider reads only the listed
 * variables when it leaves its key out, and an entry that would need Application Default
 * Credentials, the AWS default chain or a key file that {@code admin_allowed_credentials} does
 * not lend is refused ({@code credential_not_allowed}) before anything is read.
 */
public final class ModelEntries {

    /** Why an entry cannot be served, each problem named by its field. */
    public static final class Invalid extends Exception {
        private final List<String> problems;
        private final String field;
        private final String code;

        Invalid(List<String> problems) {
            this(problems, null, "invalid_model");
        }

        Invalid(List<String> problems, String field, String code) {
            super(String.join("; ", problems));
            this.problems = List.copyOf(problems);
            this.field = field;
            this.code = code;
        }

        public List<String> problems() {
            return problems;
        }

        /** The field refused, when one rule about one field refused the entry; else null. */
        public String field() {
            return field;
        }

        /** What refused it: {@code invalid_model}, {@code env_reference_not_allowed} or {@code credential_not_allowed}. */
        public String code() {
            return code;
        }
    }

    /** A deployment, and the keys of its entry that Sluice does not act on. */
    public record Parsed(Deployment deployment, List<String> ignoredKeys) {}

    private final Map<String, String> env;
    private final AmbientCredentials lent;
    private final Set<String> allowedEnvVars;
    private final Providers providers;
    private final Guardrails guardrails;

    /**
     * @param lent what an entry may draw on besides what it writes out: the variables of
     *             {@code general_settings.admin_allowed_env_vars}, the kinds of {@code admin_allowed_credentials}
     */
    public ModelEntries(Map<String, String> env, AmbientCredentials lent, Providers providers, Guardrails guardrails) {
        this.env = env;
        this.lent = lent;
        this.allowedEnvVars = lent.variables();
        this.providers = providers;
        this.guardrails = guardrails;
    }

    /** The longest deployment id and group name the store keeps. */
    static final int MAX_NAME_LENGTH = 255;

    public Parsed parse(JsonNode entry) throws Invalid {
        List<EnvReferences.Refused> references = EnvReferences.refused(entry, allowedEnvVars);
        if (!references.isEmpty()) {
            String rule = allowedEnvVars.isEmpty()
                    ? "a value written out: the model API may not read the gateway's environment unless "
                            + "general_settings.admin_allowed_env_vars lists the variable"
                    : "a value written out, or a variable listed in general_settings.admin_allowed_env_vars";
            throw new Invalid(references.stream().map(ref -> ref.field() + ": " + ref.written() + " (expected: " + rule + ")")
                    .toList(), references.getFirst().field(), "env_reference_not_allowed");
        }
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
        Deployment deployment = added.deployment().withAmbient(lent);
        // Before the provider's own checks, which may read what the credential names (a key file's project).
        Optional<BorrowedCredential> borrowed = providers.borrowed(deployment);
        if (borrowed.isPresent()) {
            throw new Invalid(List.of(borrowed.get().field() + ": " + borrowed.get().reason()), borrowed.get().field(),
                    "credential_not_allowed");
        }
        List<String> misconfigured = providers.misconfigurations(List.of(deployment));
        if (!misconfigured.isEmpty()) {
            throw new Invalid(unprefixed(misconfigured));
        }
        return new Parsed(deployment, unprefixed(added.ignoredKeys()));
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
