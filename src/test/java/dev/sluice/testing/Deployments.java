package dev.sluice.testing;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.vendors.Providers;
import java.util.List;
import java.util.Map;

/**
 * Deployments of one group {@code g} read from config text, as start-up reads them: deployment
 * {@code i} has id {@code d<i>} and an unreachable {@code api_base}.
 */
public final class Deployments {
    private Deployments() {}

    /**
     * @param entries each the body of a {@code litellm_params} flow map, optionally followed by
     *                {@code | } and more of {@code model_info} (e.g. {@code "model: openai/a | max_input_tokens: 10"})
     */
    public static List<Deployment> of(String... entries) {
        StringBuilder yaml = new StringBuilder("model_list:\n");
        for (int i = 0; i < entries.length; i++) {
            String[] parts = entries[i].split("\\|");
            yaml.append("  - model_name: g\n    litellm_params: {").append(parts[0].strip())
                    .append(", api_base: 'http://127.0.0.1:9/v1'}\n    model_info: {id: d").append(i)
                    .append(parts.length > 1 ? ", " + parts[1].strip() : "").append("}\n");
        }
        try {
            return ConfigLoader.parse(yaml.toString(), Map.of(), Providers.knownPrefixes()).deployments();
        } catch (Exception e) {
            throw new IllegalArgumentException(yaml.toString(), e);
        }
    }

    public static Deployment one(String entry) {
        return of(entry).getFirst();
    }
}
