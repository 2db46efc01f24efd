package dev.sluice.config;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/** Reads one deployment's {@code litellm_params}. */
final class LitellmParamsParser {
    /** LiteLLM's rule: a model without a {@code provider/} prefix is an OpenAI model. */
    static final String DEFAULT_PROVIDER = "openai";
    /** The longest tag a request can carry (what a spend row keeps): a longer deployment tag could never match. */
    static final int MAX_TAG_LENGTH = 255;
    private static final String TAG_RULE = "a non-empty string of at most " + MAX_TAG_LENGTH + " characters without surrounding spaces";

    private final FieldReader read;
    private final IgnoredKeys ignored;
    private final Set<String> knownProviders;
    private final String providerRule;
    private final GuardrailReferences guardrailReferences;
    private boolean strict;
    private boolean toleratesUnsetVariables;

    /** @param guardrailReferences where the guardrail names deployments list are kept, to be checked once guardrails are read */
    LitellmParamsParser(FieldReader read, IgnoredKeys ignored, Set<String> knownProviders, GuardrailReferences guardrailReferences) {
        this.read = read;
        this.ignored = ignored;
        this.guardrailReferences = guardrailReferences;
        this.knownProviders = Set.copyOf(knownProviders);
        this.providerRule = "a provider Sluice supports: " + String.join(", ", new TreeSet<>(knownProviders));
    }

    /**
     * Refuses a deployment of a provider Sluice does not serve as a config problem, instead
     * of leaving it to be listed as unserved.
     */
    LitellmParamsParser strict() {
        strict = true;
        return this;
    }

    /**
     * Lets a deployment's credentials and endpoint name variables that are not set, as LiteLLM
     * starts with them: the deployment is kept and {@link LitellmParams#unsetVariables()} names
     * them. Only the config file is read so; an entry added through the API is refused instead.
     */
    LitellmParamsParser toleratingUnsetVariables() {
        toleratesUnsetVariables = true;
        return this;
    }

    /** @param node a map (the caller reports a missing or non-map {@code litellm_params}) */
    LitellmParams parse(ConfigNode node) {
        Section params = Section.open(node, ignored, read.problems(), "a map with at least model");
        String model = model(params.take("model")).orElse("");
        Set<String> unset = new LinkedHashSet<>();
        FieldReader credentials = toleratesUnsetVariables ? read.tolerating(unset) : read;
        // Read in the order written here, which is the order problems are listed in.
        Optional<String> apiBase = credentials.httpUrl(params.take("api_base"));
        Optional<Secret> apiKey = credentials.secret(params.take("api_key"));
        Optional<String> apiVersion = credentials.string(params.take("api_version"));
        CapacityParams capacity = new CapacityParams(read.nonNegativeInt(params.take("rpm")), read.nonNegativeInt(params.take("tpm")));
        OptionalDouble weight = read.nonNegativeNumber(params.take("weight"));
        OptionalInt order = read.intAtLeast(params.take("order"), 1);
        AttemptParams attempts = new AttemptParams(
                read.positiveSeconds(params.take("timeout")),
                read.positiveSeconds(params.take("stream_timeout")),
                read.nonNegativeInt(params.take("max_retries")),
                read.nonNegativeSeconds(params.take("cooldown_time")));
        OptionalDouble inputCostPerToken = read.nonNegativeNumber(params.take("input_cost_per_token"));
        OptionalDouble outputCostPerToken = read.nonNegativeNumber(params.take("output_cost_per_token"));
        List<String> guardrails = guardrails(params.take("guardrails"));
        List<String> tags = tags(params.take("tags"));
        VendorParams vendor = vendor(params, credentials);
        EndpointParams endpoint = new EndpointParams(apiBase, apiKey, apiVersion, List.copyOf(unset));
        PriceParams prices = new PriceParams(inputCostPerToken, outputCostPerToken, unitPrices(params));
        LitellmParams parsed = new LitellmParams(model, providerOf(model), providerModelOf(model), endpoint, capacity, weight, order,
                attempts, prices, guardrails, tags, vendor);
        params.finish();
        return parsed;
    }

    private Optional<String> model(ConfigNode node) {
        if (node.isAbsent()) {
            read.problems().missing(node, "a non-empty string");
            return Optional.empty();
        }
        return read.string(node, model -> !strict || knownProviders.contains(providerOf(model)), providerRule)
                .flatMap(model -> read.string(node, name -> !providerModelOf(name).isEmpty(),
                        "a model name after \"" + providerOf(model) + "/\""));
    }

    private UnitPrices unitPrices(Section params) {
        return new UnitPrices(
                read.nonNegativeNumber(params.take("output_cost_per_image")),
                read.nonNegativeNumber(params.take("input_cost_per_pixel")),
                read.nonNegativeNumber(params.take("input_cost_per_character")),
                read.nonNegativeNumber(params.take("input_cost_per_second")),
                read.nonNegativeNumber(params.take("input_cost_per_query")));
    }

    /**
     * A region is written into the host a call goes to ({@code https://LOCATION-aiplatform.googleapis.com},
     * {@code https://bedrock-runtime.REGION.amazonaws.com}), so anything but a region's name
     * ({@code evil.example/x?}) would send the call, and its token or signature, elsewhere.
     */
    private static final String REGION_RULE = "a region name of lower-case letters, digits and hyphens, such as us-east-1";

    private static boolean regionName(String region) {
        return region.matches("[a-z0-9]+(-[a-z0-9]+)*");
    }

    /** @param credentials the reader of the credentials and endpoints, which may tolerate unset variables */
    private VendorParams vendor(Section params, FieldReader credentials) {
        return new VendorParams(
                credentials.string(params.take("vertex_project")),
                credentials.string(params.take("vertex_location"), LitellmParamsParser::regionName, REGION_RULE),
                credentials.secret(params.take("vertex_credentials")),
                credentials.secret(params.take("aws_access_key_id")),
                credentials.secret(params.take("aws_secret_access_key")),
                credentials.secret(params.take("aws_session_token")),
                credentials.string(params.take("aws_region_name"), LitellmParamsParser::regionName, REGION_RULE),
                credentials.httpUrl(params.take("aws_bedrock_runtime_endpoint")),
                headers(params.take("extra_headers")),
                read.bool(params.take("drop_params")),
                read.bool(params.take("use_responses_api")));
    }

    /** {@code extra_headers}: a map of header names to values, each written as text. */
    private Map<String, String> headers(ConfigNode node) {
        Map<String, String> headers = new LinkedHashMap<>();
        read.plainMap(node).ifPresent(map -> map.forEach((name, value) -> {
            if (value instanceof Map || value instanceof List || value == null) {
                read.problems().add(node, ShownValue.of(node.value(), false), "a map of header names to text values");
            } else {
                headers.put(name, String.valueOf(value));
            }
        }));
        return headers;
    }

    /** LiteLLM's per-deployment guardrails: a list of {@code guardrail_name}s. */
    private List<String> guardrails(ConfigNode node) {
        if (node.isAbsent()) {
            return List.of();
        }
        if (!node.isList()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a list of guardrail names");
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (ConfigNode item : node.items()) {
            if (item.isAbsent()) {
                read.problems().missing(item, "a guardrail_name from guardrails");
                continue;
            }
            read.string(item).ifPresent(name -> {
                guardrailReferences.add(item, name);
                names.add(name);
            });
        }
        return List.copyOf(new LinkedHashSet<>(names));
    }

    /**
     * LiteLLM's deployment tags: a list of text tags, each kept once. A request's tags are
     * compared as they arrive, stripped, so a tag written with surrounding spaces could never
     * match and is refused.
     */
    private List<String> tags(ConfigNode node) {
        return List.copyOf(new LinkedHashSet<>(read.list(node, TAG_RULE, this::tag)));
    }

    private String tag(ConfigNode node) {
        return read.string(node).filter(tag -> {
            if (tag.length() <= MAX_TAG_LENGTH && tag.strip().equals(tag)) {
                return true;
            }
            // Quoted, so that the spaces the rule is about show.
            read.problems().add(node, ShownValue.of(TextNode.valueOf(tag), false), TAG_RULE);
            return false;
        }).orElse(null);
    }

    static String providerOf(String model) {
        int slash = model.indexOf('/');
        return slash < 0 ? DEFAULT_PROVIDER : model.substring(0, slash);
    }

    static String providerModelOf(String model) {
        return model.substring(model.indexOf('/') + 1);
    }
}
