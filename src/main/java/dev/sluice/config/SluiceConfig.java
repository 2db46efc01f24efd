package dev.sluice.config;

import java.util.List;

/**
 * A whole validated config.
 *
 * @param deployments the {@code model_list}, in file order
 * @param guardrails  the top-level {@code guardrails}, in file order
 * @param ignoredKeys config paths that were read but that Sluice does not act on (yet), in
 *                    file order, e.g. {@code litellm_settings.cache_params.type: redis-semantic}; start-up warns once
 *                    listing them
 * @param jsonLogs    {@code litellm_settings.json_logs}: the log is written as JSON lines
 *                    (as with the environment variable {@code JSON_LOGS=True})
 * @param unserved    the {@code model_list} entries of providers Sluice does not serve, left
 *                    out of {@code deployments}, in file order
 * @param cache       the response cache ({@code litellm_settings.cache} and {@code cache_params})
 * @param callbacks   the logging callbacks of {@code litellm_settings}, and whether prompts and
 *                    answers may reach them
 */
public record SluiceConfig(
        List<Deployment> deployments,
        RouterSettings router,
        GeneralSettings general,
        List<GuardrailConfig> guardrails,
        List<String> ignoredKeys,
        boolean jsonLogs,
        List<UnservedDeployment> unserved,
        CacheSettings cache,
        CallbackSettings callbacks) {

    public SluiceConfig {
        deployments = List.copyOf(deployments);
        unserved = List.copyOf(unserved);
        guardrails = List.copyOf(guardrails);
        ignoredKeys = List.copyOf(ignoredKeys);
    }

    /** A config that leaves the log format to the environment. */
    public SluiceConfig(List<Deployment> deployments, RouterSettings router, GeneralSettings general,
            List<GuardrailConfig> guardrails, List<String> ignoredKeys) {
        this(deployments, router, general, guardrails, ignoredKeys, false, List.of(), CacheSettings.OFF, CallbackSettings.NONE);
    }

    /** The same config with {@code replaced} general settings. */
    public SluiceConfig withGeneral(GeneralSettings replaced) {
        return new SluiceConfig(deployments, router, replaced, guardrails, ignoredKeys, jsonLogs, unserved, cache, callbacks);
    }

    /**
     * The index in the file's {@code model_list} of {@code deployments().get(served)}: the
     * unserved deployments left out of {@code deployments} still count in the file.
     */
    public int fileIndex(int served) {
        int index = served;
        for (UnservedDeployment left : unserved) {
            if (left.index() <= index) {
                index++;
            }
        }
        return index;
    }
}
