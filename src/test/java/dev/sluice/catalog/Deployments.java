package dev.sluice.catalog;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.provider.Providers;
import java.util.List;
import java.util.Map;

/** Deployments read from config text, one per flow map of litellm_params (and model_info). */
final class Deployments {
    private Deployments() {}

    /** @param entries each {@code litellm_params} as a flow map body, optionally followed by {@code | model_info} */
    static List<Deployment> of(String... entries) {
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

    static Deployment one(String entry) {
        return of(entry).getFirst();
    }
}
