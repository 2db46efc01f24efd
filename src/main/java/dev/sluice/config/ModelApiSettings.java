package dev.sluice.config;

import dev.sluice.net.Cidr;
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
 * @param allowedCredentials {@code admin_allowed_credentials}: the ambient credentials besides variables
 *                        (Application Default Credentials, the AWS default chain, files named by path) such a
 *                        deployment may draw on; by default none
 */
public record ModelApiSettings(Set<String> allowedEnvVars, List<Cidr> deniedNetworks, List<Cidr> allowedNetworks,
        Set<AmbientCredentials.Kind> allowedCredentials) {
    public static final ModelApiSettings DEFAULTS = new ModelApiSettings(Set.of(), List.of(), List.of(), Set.of());

    public ModelApiSettings {
        allowedEnvVars = Set.copyOf(allowedEnvVars);
        deniedNetworks = List.copyOf(deniedNetworks);
        allowedNetworks = List.copyOf(allowedNetworks);
        allowedCredentials = Set.copyOf(allowedCredentials);
    }

    /**
     * What a deployment of the model API draws on besides what it writes out: the listed variables
     * (whether named as {@code os.environ/NAME} or read by its provider when a key is left out, as
     * {@code OPENAI_API_KEY}) and the listed kinds.
     */
    public AmbientCredentials lent() {
        return new AmbientCredentials(false, allowedEnvVars, allowedCredentials);
    }
}
