package dev.sluice.config;

import java.util.Optional;

/**
 * LiteLLM's {@code model_info.mode}: what kind of call a deployment serves, which decides how
 * its health is probed. Sluice acts on the three kinds it routes; LiteLLM's other modes
 * ({@code image_generation}, {@code rerank}, ...) are listed as not acted on, and such a
 * deployment is probed as a chat deployment.
 */
public enum ModelMode {
    CHAT("chat"),
    COMPLETION("completion"),
    EMBEDDING("embedding");

    private final String configName;

    ModelMode(String configName) {
        this.configName = configName;
    }

    /** The name the config file writes, e.g. {@code embedding}. */
    public String configName() {
        return configName;
    }

    static Optional<ModelMode> fromConfigName(String name) {
        for (ModelMode mode : values()) {
            if (mode.configName.equals(name)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
