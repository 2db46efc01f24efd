package dev.sluice.config;

/**
 * When a guardrail runs, by LiteLLM's name for it: {@code pre_call} checks the prompt before
 * any deployment is called, {@code post_call} checks the answer before the caller gets it.
 */
public enum GuardrailMode {
    PRE_CALL("pre_call"),
    POST_CALL("post_call");

    private final String configName;

    GuardrailMode(String configName) {
        this.configName = configName;
    }

    /** The name written in the config, e.g. {@code pre_call}. */
    public String configName() {
        return configName;
    }
}
