package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Config text for tests, and config text parsed as start-up parses it. */
public final class Configs {
    /** The providers config tests parse against: a fixed set, so a test does not change when one is added. */
    public static final Set<String> PROVIDERS = Set.of("openai", "azure", "hosted_vllm", "ollama");

    private Configs() {}

    /**
     * One group {@code chat} with one OpenAI-compatible deployment {@code dep-1} at
     * {@code apiBase}; {@code extraParams} is appended inside {@code litellm_params}
     * (e.g. {@code ", timeout: 0.3"}).
     */
    public static String singleDeployment(String apiBase, String extraParams) {
        return """
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: %s %s}
                    model_info: {id: dep-1}
                """.formatted(apiBase, extraParams);
    }

    /** One deployment whose litellm_params hold {@code model: openai/gpt-4o} plus {@code param}. */
    public static String withParam(String param) {
        return """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      %s
                """.formatted(param);
    }

    /** One plain deployment, plus {@code section} written at the top level. */
    public static String withSection(String section) {
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

    public static SluiceConfig parse(String yaml) throws ConfigException {
        return parse(yaml, Map.of());
    }

    public static SluiceConfig parse(String yaml, Map<String, String> env) throws ConfigException {
        return ConfigLoader.parse(yaml, env, PROVIDERS);
    }

    /** The problems a config that cannot be used is refused with; fails when it loads. */
    public static List<String> problems(String yaml) {
        return problems(yaml, Map.of());
    }

    public static List<String> problems(String yaml, Map<String, String> env) {
        ConfigException[] thrown = new ConfigException[1];
        assertThatThrownBy(() -> parse(yaml, env))
                .isInstanceOfSatisfying(ConfigException.class, e -> thrown[0] = e);
        return thrown[0].problems();
    }

    /** The problems of a config, or none when it loads. */
    public static List<String> problemsOrNone(String yaml) {
        try {
            parse(yaml);
            return List.of();
        } catch (ConfigException e) {
            return e.problems();
        }
    }
}
