package dev.sluice.call;

import dev.sluice.config.Deployment;
import dev.sluice.config.WildcardPattern;
import dev.sluice.router.ModelGroup;
import dev.sluice.vendors.Providers;
import dev.sluice.wire.ApiError;
import java.util.Optional;

/**
 * The refusal of a name a wildcard group would send to a provider Sluice does not serve:
 * {@code model: "*"} called as {@code some-vendor/x}. The config check refuses such a
 * deployment at start-up; a wildcard one only shows its provider once called.
 */
final class WildcardProviders {
    private WildcardProviders() {}

    static Optional<ApiError> refusal(String asked, ModelGroup group) {
        if (!WildcardPattern.isPattern(group.name())) {
            return Optional.empty(); // a named group's deployments were checked when they were loaded or added
        }
        for (Deployment deployment : group.deployments()) {
            String provider = deployment.params().provider();
            if (!Providers.knownPrefixes().contains(provider)) {
                return Optional.of(ApiError.invalidRequest("Sluice: model '" + asked + "' matches the wildcard model group '"
                        + group.name() + "', whose deployment would call provider '" + provider + "', which Sluice does "
                        + "not serve. Providers Sluice serves: " + String.join(", ", Providers.knownPrefixes().stream().sorted()
                        .toList()) + ".", "model", "provider_not_supported"));
            }
        }
        return Optional.empty();
    }
}
