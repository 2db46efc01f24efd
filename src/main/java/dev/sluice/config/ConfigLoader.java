package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads LiteLLM's proxy {@code config.yaml} as it is into a validated {@link SluiceConfig}.
 *
 * <p>Every problem in the file is collected and reported together in one
 * {@link ConfigException}, each naming its path, the value as written (never a secret)
 * and the rule. Keys that are not an error but that Sluice does not act on are listed in
 * {@link SluiceConfig#ignoredKeys()}.
 */
public final class ConfigLoader {
    private ConfigLoader() {}

    /**
     * @param env            the variables {@code os.environ/NAME} and the LiteLLM fallbacks
     *                       ({@code LITELLM_MASTER_KEY}, {@code REDIS_HOST}, ...) read from
     * @param knownProviders the provider prefixes Sluice can call, e.g. {@code azure}, {@code openai}
     */
    public static SluiceConfig load(Path file, Map<String, String> env, Set<String> knownProviders)
            throws ConfigException {
        return load(file, env, knownProviders, false);
    }

    /**
     * Like {@link #load(Path, Map, Set)}; with {@code strict} a deployment of a provider not in
     * {@code knownProviders} is a config problem rather than left out and listed as unserved.
     */
    public static SluiceConfig load(Path file, Map<String, String> env, Set<String> knownProviders, boolean strict)
            throws ConfigException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new ConfigException(List.of(file + ": cannot read the config: it is not UTF-8 text"));
        } catch (IOException e) {
            throw new ConfigException(List.of(file + ": cannot read the config: " + reason(e)));
        }
        return parse(YamlTree.read(text, file.toString()), env, knownProviders, strict);
    }

    /** Like {@link #load}, for config text that is not in a file; errors name it {@code config}. */
    public static SluiceConfig parse(String yaml, Map<String, String> env, Set<String> knownProviders)
            throws ConfigException {
        return parse(yaml, env, knownProviders, false);
    }

    /** Like {@link #load(Path, Map, Set, boolean)}, for config text that is not in a file. */
    public static SluiceConfig parse(String yaml, Map<String, String> env, Set<String> knownProviders, boolean strict)
            throws ConfigException {
        return parse(YamlTree.read(yaml, "config"), env, knownProviders, strict);
    }

    private static SluiceConfig parse(JsonNode tree, Map<String, String> env, Set<String> knownProviders, boolean strict)
            throws ConfigException {
        Problems problems = new Problems();
        IgnoredKeys ignored = new IgnoredKeys();
        EnvResolver resolver = new EnvResolver(ServiceLinks.normalise(env), problems);
        FieldReader read = new FieldReader(resolver, problems);
        ConfigNode root = ConfigNode.root(tree);

        Section top = Section.open(root, ignored, problems, "a map of sections such as model_list and router_settings");
        if (!root.isMap()) {
            problems.throwIfAny(); // nothing below the top level can be read
        }
        GuardrailReferences guardrailReferences = new GuardrailReferences();
        LitellmParamsParser params = new LitellmParamsParser(read, ignored, knownProviders, guardrailReferences)
                .toleratingUnsetVariables();
        DeploymentParser entries = new DeploymentParser(read, ignored, strict ? params.strict() : params,
                new ModelInfoParser(read, ignored));
        ModelListParser.ModelList models = new ModelListParser(read, entries).parse(top.take("model_list"));
        RouterSettingsParser routerSettings = new RouterSettingsParser(read, ignored, resolver);
        RouterSettings router = routerSettings.parse(top.take("router_settings"), top.take("litellm_settings"), models.groups());
        GeneralSettings general = new GeneralSettingsParser(read, ignored, resolver).parse(top.take("general_settings"),
                routerSettings.requireAuthForMetrics());
        GuardrailsParser.Parsed guardrails = new GuardrailsParser(read, ignored).parse(top.take("guardrails"));
        if (guardrails.readable()) {
            guardrailReferences.check(guardrails.names(), problems);
        }
        top.finish();

        problems.throwIfAny();
        List<Deployment> served = new ArrayList<>();
        List<UnservedDeployment> unserved = new ArrayList<>();
        for (int i = 0; i < models.deployments().size(); i++) {
            Deployment d = withDropParams(models.deployments().get(i), routerSettings.dropParams());
            if (knownProviders.contains(d.params().provider())) {
                served.add(d);
            } else {
                unserved.add(new UnservedDeployment(i, d.modelName(), d.params().model(), d.params().provider()));
            }
        }
        return new SluiceConfig(served, router, general, guardrails.guardrails(), ignored.inFileOrder(root),
                routerSettings.jsonLogs(), unserved, routerSettings.cache(), routerSettings.callbacks());
    }

    /**
     * Reads one {@code model_list} entry given at run time (a management call), with the same
     * rules as in the file. Problems are named as in the file, {@code model_list[0]...}.
     *
     * @param guardrails the guardrail names the running config defines, which the entry may list
     */
    public static AddedDeployment parseDeployment(JsonNode entry, Map<String, String> env, Set<String> knownProviders,
            Set<String> guardrails) throws ConfigException {
        Problems problems = new Problems();
        IgnoredKeys ignored = new IgnoredKeys();
        EnvResolver resolver = new EnvResolver(ServiceLinks.normalise(env), problems);
        FieldReader read = new FieldReader(resolver, problems);
        com.fasterxml.jackson.databind.node.ObjectNode tree = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        tree.putArray("model_list").add(entry);
        ConfigNode root = ConfigNode.root(tree);
        GuardrailReferences guardrailReferences = new GuardrailReferences();
        // The model API adds only what can be served: an entry of an unknown provider is refused.
        DeploymentParser entries = new DeploymentParser(read, ignored,
                new LitellmParamsParser(read, ignored, knownProviders, guardrailReferences).strict(), new ModelInfoParser(read, ignored));
        ModelListParser.ModelList models = new ModelListParser(read, entries).parse(root.get("model_list"));
        guardrailReferences.check(guardrails, problems);
        problems.throwIfAny();
        return new AddedDeployment(models.deployments().getFirst(), ignored.inFileOrder(root));
    }

    /** {@code litellm_settings.drop_params} for a deployment whose own {@code litellm_params} do not say. */
    private static Deployment withDropParams(Deployment d, boolean dropParams) {
        LitellmParams p = d.params();
        if (!dropParams || p.vendor().dropParams().isPresent()) {
            return d;
        }
        return new Deployment(d.id(), d.modelName(), p.withVendor(p.vendor().withDropParams(true)), d.info(), d.ambient());
    }

    /** A deployment read at run time, and the keys in it that Sluice does not act on. */
    public record AddedDeployment(Deployment deployment, List<String> ignoredKeys) {}

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
