package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Test shorthand for parsing config text against a fixed set of providers. */
final class Configs {
    static final Set<String> PROVIDERS = Set.of("openai", "azure", "hosted_vllm", "ollama");

    private Configs() {}

    static SluiceConfig parse(String yaml) throws ConfigException {
        return parse(yaml, Map.of());
    }

    static SluiceConfig parse(String yaml, Map<String, String> env) throws ConfigException {
        return ConfigLoader.parse(yaml, env, PROVIDERS);
    }

    static List<String> problems(String yaml) {
        return problems(yaml, Map.of());
    }

    static List<String> problems(String yaml, Map<String, String> env) {
        ConfigException[] thrown = new ConfigException[1];
        assertThatThrownBy(() -> parse(yaml, env))
                .isInstanceOfSatisfying(ConfigException.class, e -> thrown[0] = e);
        return thrown[0].problems();
    }

    /** The problems of a config, or none when it loads. */
    static List<String> problemsOrNone(String yaml) {
        try {
            parse(yaml);
            return List.of();
        } catch (ConfigException e) {
            return e.problems();
        }
    }

    /** One deployment whose litellm_params hold {@code model: openai/gpt-4o} plus {@code param}. */
    static String withParam(String param) {
        return """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      %s
                """.formatted(param);
    }

    /** One plain deployment, plus {@code section} written at the top level. */
    static String withSection(String section) {
        return """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                  - model_name: gpt-4o-mini
                    litellm_params:
                      model: openai/gpt-4o-mini
                %s
                """.formatted(section);
    }
}
