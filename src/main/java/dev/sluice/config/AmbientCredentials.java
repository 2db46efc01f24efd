package dev.sluice.config;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a deployment may draw on besides what it writes out itself: the gateway's provider
 * variables ({@code OPENAI_API_KEY}, {@code ANTHROPIC_API_KEY}, ...), Google's Application Default
 * Credentials, the AWS SDK's default chain (environment, profile, web identity, container or
 * instance role) and files named by path ({@code vertex_credentials: /path/key.json}).
 *
 * <p>The config file's deployments are the operator's and draw on all of them ({@link #OPERATOR}).
 * One given through the model API draws only on what {@code general_settings} lends it: the
 * variables {@code admin_allowed_env_vars} lists, and the kinds {@code admin_allowed_credentials}
 * lists. Otherwise {@code /model/new} with {@code api_base} at an address of the caller's choice
 * and no key would carry the gateway's own key, token or signature there.
 *
 * @param anyVariable whether every variable may be read (the operator's deployments)
 * @param variables   the variables that may be read when not every one may
 * @param kinds       the other ambient credentials that may be used
 */
public record AmbientCredentials(boolean anyVariable, Set<String> variables, Set<Kind> kinds) {

    /** An ambient credential other than a provider variable, as {@code admin_allowed_credentials} names it. */
    public enum Kind {
        /** Google's Application Default Credentials, for Vertex AI without {@code vertex_credentials}. */
        APPLICATION_DEFAULT("application_default"),
        /** The AWS SDK's default chain, for Bedrock without {@code aws_access_key_id} and {@code aws_secret_access_key}. */
        AWS_DEFAULT_CHAIN("aws_default_chain"),
        /** A file of the gateway's named by path, such as {@code vertex_credentials: /etc/keys/sa.json}. */
        FILES("files");

        private final String written;

        Kind(String written) {
            this.written = written;
        }

        /** The name as the config writes it. */
        public String written() {
            return written;
        }

        public static Optional<Kind> of(String written) {
            for (Kind kind : values()) {
                if (kind.written.equals(written)) {
                    return Optional.of(kind);
                }
            }
            return Optional.empty();
        }
    }

    /** What the operator's own deployments draw on: everything. */
    public static final AmbientCredentials OPERATOR = new AmbientCredentials(true, Set.of(), Set.of(Kind.values()));

    /** What a deployment of the model API draws on when {@code general_settings} lends it nothing. */
    public static final AmbientCredentials NONE = new AmbientCredentials(false, Set.of(), Set.of());

    public AmbientCredentials {
        variables = Set.copyOf(variables);
        kinds = Set.copyOf(kinds);
    }

    /** The value of the provider variable {@code name}, when it is set and may be read. */
    public Optional<String> variable(Map<String, String> env, String name) {
        if (name == null || !(anyVariable || variables.contains(name))) {
            return Optional.empty();
        }
        return Optional.ofNullable(env.get(name));
    }

    public boolean allows(Kind kind) {
        return kinds.contains(kind);
    }
}
