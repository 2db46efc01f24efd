package dev.sluice.router.strategy;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.vendors.Providers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Deployments of one group {@code g}, built from config text, and helpers to count picks. */
final class Candidates {
    private Candidates() {}

    /**
     * One deployment per argument, ids {@code d0}, {@code d1}, ...; each argument is extra
     * {@code litellm_params}, e.g. {@code "tpm: 10000, weight: 0"}.
     */
    static List<Deployment> group(String... params) throws Exception {
        StringBuilder yaml = new StringBuilder("model_list:\n");
        for (int i = 0; i < params.length; i++) {
            yaml.append("  - model_name: g\n    litellm_params: {model: openai/m").append(i)
                    .append(", api_base: 'http://127.0.0.1:9/v1'")
                    .append(params[i].isEmpty() ? "" : ", " + params[i])
                    .append("}\n    model_info: {id: d").append(i).append("}\n");
        }
        return ConfigLoader.parse(yaml.toString(), Map.of(), Providers.knownPrefixes()).deployments();
    }

    static RequestFacts request(int promptTokens) {
        return new RequestFacts("g", promptTokens, false, Optional.empty());
    }

    static RequestFacts streamRequest() {
        return new RequestFacts("g", 10, true, Optional.empty());
    }

    /** The id chosen, failing the test when the strategy refused. */
    static String chosen(Pick pick) {
        if (pick instanceof Pick.Chosen chosen) {
            return chosen.deployment().id();
        }
        throw new AssertionError("expected a deployment, got " + pick);
    }

    /** How often each id was chosen in {@code picks} picks. */
    static Map<String, Integer> counts(RoutingStrategy strategy, List<Deployment> candidates, RequestFacts request,
            int picks) {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < picks; i++) {
            counts.merge(chosen(strategy.pick(candidates, request)), 1, Integer::sum);
        }
        return counts;
    }
}
