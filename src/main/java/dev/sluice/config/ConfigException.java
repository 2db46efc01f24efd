package dev.sluice.config;

import java.util.List;

/**
 * A config that cannot be used. Each problem names the path, the value and what was
 * expected, e.g. {@code model_list[1].litellm_params.weight: -1 (expected: >= 0)}.
 */
public final class ConfigException extends Exception {
    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
