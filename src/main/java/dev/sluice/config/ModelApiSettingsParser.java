package dev.sluice.config;

import java.util.LinkedHashSet;
import java.util.regex.Pattern;

/** Reads the {@code general_settings} keys of {@link ModelApiSettings}. */
record ModelApiSettingsParser(FieldReader read) {
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String CREDENTIAL = "one of application_default, aws_default_chain, files";
    private static final String NETWORK = "a network in CIDR form, such as 169.254.0.0/16 or fd00::/8";

    ModelApiSettings parse(Section general) {
        return new ModelApiSettings(
                new LinkedHashSet<>(read.list(general.take("admin_allowed_env_vars"), "a variable name such as OPENAI_API_KEY",
                        this::variable)),
                read.networks(general.take("admin_api_base_denied_networks"), NETWORK),
                read.networks(general.take("admin_api_base_allowed_networks"), NETWORK),
                new LinkedHashSet<>(read.list(general.take("admin_allowed_credentials"), CREDENTIAL, this::credential)));
    }

    private AmbientCredentials.Kind credential(ConfigNode node) {
        return read.string(node, name -> AmbientCredentials.Kind.of(name).isPresent(), CREDENTIAL)
                .flatMap(AmbientCredentials.Kind::of).orElse(null);
    }

    private String variable(ConfigNode node) {
        return read.string(node, name -> VARIABLE.matcher(name).matches(), "a variable name such as OPENAI_API_KEY")
                .orElse(null);
    }

}
