package dev.sluice.spend;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.provider.Providers;
import java.util.List;
import java.util.Map;

/** Deployments of one group read from config text, each from the body of a litellm_params flow map. */
final class TestDeployments {
    private TestDeployments() {}

    static List<Deployment> of(String... litellmParams) {
        StringBuilder yaml = new StringBuilder("model_list:\n");
        for (int i = 0; i < litellmParams.length; i++) {
            yaml.append("  - model_name: g\n    litellm_params: {").append(litellmParams[i])
                    .append(", api_base: 'http://127.0.0.1:9/v1'}\n    model_info: {id: d").append(i).append("}\n");
        }
        try {
            return ConfigLoader.parse(yaml.toString(), Map.of(), Providers.knownPrefixes()).deployments();
        } catch (Exception e) {
            throw new IllegalArgumentException(yaml.toString(), e);
        }
    }

    static Deployment one(String litellmParams) {
        return of(litellmParams).getFirst();
    }
}
