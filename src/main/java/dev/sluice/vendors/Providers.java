package dev.sluice.vendors;

import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.config.UnservedDeployment;
import dev.sluice.vendors.anthropic.provider.AnthropicProvider;
import dev.sluice.vendors.azure.provider.AzureProvider;
import dev.sluice.vendors.bedrock.provider.BedrockProvider;
import dev.sluice.vendors.gemini.provider.GeminiProvider;
import dev.sluice.vendors.openai.provider.CompatibleFlavour;
import dev.sluice.vendors.openai.provider.CompatibleFlavours;
import dev.sluice.vendors.openai.provider.OpenAiCompatibleProvider;
import dev.sluice.vendors.vertex.provider.VertexProvider;
import dev.sluice.wire.ApiError;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Every provider adapter by its {@code litellm_params.model} prefix. */
public final class Providers {
    private final Map<String, Provider> byPrefix;
    private final List<UnservedDeployment> unserved;

    private Providers(Map<String, Provider> byPrefix, List<UnservedDeployment> unserved) {
        this.byPrefix = byPrefix;
        this.unserved = List.copyOf(unserved);
    }

    /** These adapters, knowing which of the config's deployments none of them serves. */
    public Providers leavingOut(List<UnservedDeployment> unservedDeployments) {
        return new Providers(byPrefix, unservedDeployments);
    }

    /**
     * Why a call to {@code group}, which serves nothing, cannot be served: the config gave it
     * only deployments of providers Sluice does not serve. Empty when the config does not name
     * the group at all.
     */
    public Optional<ApiError> unservedGroup(String group) {
        Set<String> providers = new java.util.TreeSet<>();
        unserved.stream().filter(d -> d.modelName().equals(group)).forEach(d -> providers.add(d.provider()));
        if (providers.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ApiError.invalidRequest("Sluice: model group '" + group + "' has only deployments of provider(s) "
                + String.join(", ", providers.stream().map(p -> "'" + p + "'").toList())
                + ", which Sluice does not serve; they were left out at start-up. Providers Sluice serves: "
                + String.join(", ", knownPrefixes().stream().sorted().toList()) + ".", "model", "provider_not_supported"));
    }

    /** How one adapter is built: from the environment, the clock and the model catalog. */
    @FunctionalInterface
    private interface Adapter {
        Provider build(Map<String, String> env, Clock clock, ModelCatalog catalog);
    }

    /**
     * The adapters of vendors with an API of their own, by prefix; each is built from the
     * environment (for defaults such as {@code AZURE_API_KEY}), the model catalog (for limits
     * such as Anthropic's required {@code max_tokens}) and the gateway's clock (for the dates
     * of translated answers and the times requests are signed at).
     */
    private static final Map<String, Adapter> NATIVE = Map.of(
            "azure", (env, clock, catalog) -> new AzureProvider(env, clock),
            "bedrock", BedrockProvider::new,
            "anthropic", AnthropicProvider::new,
            "gemini", (env, clock, catalog) -> new GeminiProvider(env, clock),
            "vertex_ai", VertexProvider::new);

    /**
     * All adapters Sluice ships, on {@code clock} and the bundled catalog: for checking a config
     * before a gateway starts. {@code env} supplies provider defaults such as {@code OPENAI_API_KEY}.
     */
    public static Providers builtIn(Map<String, String> env, Clock clock) {
        return builtIn(env, new BundledModelCatalog(), clock);
    }

    /**
     * All adapters Sluice ships, reading model limits from {@code catalog}, the one the gateway
     * routes with, and dating what they write by {@code clock}, the gateway's.
     */
    public static Providers builtIn(Map<String, String> env, ModelCatalog catalog, Clock clock) {
        Map<String, Provider> byPrefix = new LinkedHashMap<>();
        NATIVE.forEach((prefix, adapter) -> byPrefix.put(prefix, adapter.build(env, clock, catalog)));
        for (CompatibleFlavour flavour : CompatibleFlavours.ALL) {
            byPrefix.put(flavour.prefix(), new OpenAiCompatibleProvider(flavour, env, clock));
        }
        return new Providers(Map.copyOf(byPrefix), List.of());
    }

    /** The prefixes the config may use. */
    public static Set<String> knownPrefixes() {
        return KNOWN_PREFIXES;
    }

    /** Worked out once: a wildcard group asks on every call whether its provider is one of them. */
    private static final Set<String> KNOWN_PREFIXES = knownPrefixesOnce();

    private static Set<String> knownPrefixesOnce() {
        Set<String> prefixes = new java.util.TreeSet<>(NATIVE.keySet());
        CompatibleFlavours.ALL.forEach(f -> prefixes.add(f.prefix()));
        return Set.copyOf(prefixes);
    }

    public Provider forDeployment(Deployment deployment) {
        Provider provider = byPrefix.get(deployment.params().provider());
        if (provider == null) {
            throw new IllegalArgumentException("no provider adapter for '" + deployment.params().provider() + "'");
        }
        return provider;
    }

    /**
     * Problems that stop these deployments from being called, each naming its place in
     * {@code model_list} the way config errors do.
     */
    public List<String> misconfigurations(List<Deployment> deployments) {
        return misconfigurations(deployments, i -> i);
    }

    /**
     * Like {@link #misconfigurations(List)}, for deployments that are not the whole
     * {@code model_list} (those of unserved providers left out): {@code place} maps a
     * deployment's index in {@code deployments} to its index in the file.
     */
    public List<String> misconfigurations(List<Deployment> deployments, java.util.function.IntUnaryOperator place) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < deployments.size(); i++) {
            Deployment d = deployments.get(i);
            if (!d.params().endpoint().unsetVariables().isEmpty()) {
                continue; // its calls fail naming the unset variables, which say more than what they leave missing
            }
            Optional<String> problem = forDeployment(d).misconfiguration(d);
            int index = place.applyAsInt(i);
            problem.ifPresent(p -> problems.add("model_list[" + index + "].litellm_params." + p));
        }
        return problems;
    }

    /** What {@code deployment} would take from the gateway that it is not lent, if anything. */
    public Optional<BorrowedCredential> borrowed(Deployment deployment) {
        return forDeployment(deployment).borrowed(deployment);
    }
}
