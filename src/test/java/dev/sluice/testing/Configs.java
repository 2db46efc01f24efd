package dev.sluice.testing;

/** Config text for gateway tests. */
public final class Configs {
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
}
