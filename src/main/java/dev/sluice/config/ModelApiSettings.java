package dev.sluice.config;

import dev.sluice.egress.Cidr;
import java.util.List;
import java.util.Set;

/**
 * What a deployment given through the model API ({@code /model/new}, {@code /model/update})
 * may reach; the config file's deployments are the operator's and are not limited.
 *
 * @param allowedEnvVars  {@code admin_allowed_env_vars}: the variables such a deployment may name as
 *                        {@code os.environ/NAME}; by default none, so the API cannot read the gateway's environment
 * @param deniedNetworks  {@code admin_api_base_denied_networks}: networks its {@code api_base} may not point
 *                        into, besides the ones refused by default
 * @param allowedNetworks {@code admin_api_base_allowed_networks}: networks its {@code api_base} may point into
 *                        although refused by default (the denied list still wins)
 */
public record ModelApiSettings(Set<String> allowedEnvVars, List<Cidr> deniedNetworks, List<Cidr> allowedNetworks) {
    public static final ModelApiSettings DEFAULTS = new ModelApiSettings(Set.of(), List.of(), List.of());

    public ModelApiSettings {
        allowedEnvVars = Set.copyOf(allowedEnvVars);
        deniedNetworks = List.copyOf(deniedNetworks);
        allowedNetworks = List.copyOf(allowedNetworks);
    }
}
