package dev.sluice.config;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sluice's {@code deployment_weights}: {@code {"<deployment id>": weight}}, weights from 0 to
 * {@link #MAX_WEIGHT}, a weight per deployment for a caller's calls (0: a backup, used only
 * when the others cannot be). Deployment ids are not checked against the model list, since a
 * team may be set up before its models are added.
 */
final class DeploymentWeights {
    /** The largest weight: enough for any ratio, and no sum of weights can overflow to infinity. */
    static final BigDecimal MAX_WEIGHT = BigDecimal.valueOf(1_000_000);
    private static final String RULE = "a weight from 0 to 1000000";

    private DeploymentWeights() {}

    static Optional<Map<String, Double>> read(Written written) {
        if (written.isAbsent()) {
            return Optional.empty();
        }
        if (!written.isMap()) {
            written.problem(written.shown(), "a map from deployment ids to weights");
            return Optional.empty();
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Map.Entry<String, Written> entry : written.entries()) {
            if (entry.getKey().isBlank()) {
                written.problem(written.shown(), "deployment ids as keys");
                continue;
            }
            Scalars.between0And(entry.getValue(), MAX_WEIGHT, RULE)
                    .ifPresent(weight -> weights.put(entry.getKey(), weight));
        }
        return Optional.of(Collections.unmodifiableMap(weights));
    }
}
