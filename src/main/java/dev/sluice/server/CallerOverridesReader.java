package dev.sluice.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ApiError;
import dev.sluice.config.RouterSettings;
import dev.sluice.router.CallerOverrides;
import dev.sluice.router.ModelRegistry;
import dev.sluice.router.strategy.Strategies;
import io.vertx.core.MultiMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * Reads what a caller may ask of the router for one request, most specific first:
 * {@code router_settings_override} in the body, then the same fields at the top of the
 * body, then the {@code x-litellm-num-retries} and {@code x-litellm-timeout} headers. A
 * count or timeout above the configured maxima ({@code max_client_num_retries},
 * {@code max_client_timeout}) is cut to them; anything malformed is a 400 naming the field.
 * Fallback lists are accepted as a list of groups (for the requested group) or in the
 * config's form, a list of single-key maps.
 */
public final class CallerOverridesReader {
    static final String NUM_RETRIES_HEADER = "x-litellm-num-retries";
    static final String TIMEOUT_HEADER = "x-litellm-timeout";
    private static final String OVERRIDE = "router_settings_override";
    static final String DEPLOYMENT_WEIGHTS = "deployment_weights";
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(CallerOverridesReader.class);

    private final Supplier<RouterSettings> settings;
    private final ModelRegistry models;

    /** @param settings the router settings in effect, whose caps ({@code max_client_*}) are read once per call */
    public CallerOverridesReader(Supplier<RouterSettings> settings, ModelRegistry models) {
        this.settings = settings;
        this.models = models;
    }

    public CallerOverrides read(ObjectNode body, MultiMap headers, String group) {
        RouterSettings router = settings.get();
        JsonNode overrideNode = body.get(OVERRIDE);
        ObjectNode override = null;
        if (overrideNode != null && !overrideNode.isNull()) {
            if (!(overrideNode instanceof ObjectNode o)) {
                throw invalid(OVERRIDE, "must be an object");
            }
            override = o;
        }
        OptionalInt numRetries = numRetries(router, field(override, body, "num_retries"), headers.get(NUM_RETRIES_HEADER));
        Optional<Duration> timeout = timeout(router, field(override, body, "timeout"), headers.get(TIMEOUT_HEADER));
        Optional<List<String>> fallbacks = Optional.ofNullable(fallbacksFor(group, field(override, body, "fallbacks"), "fallbacks"));
        Map<String, List<String>> contextWindow = perGroup(group, field(override, body, "context_window_fallbacks"), "context_window_fallbacks");
        Map<String, List<String>> contentPolicy = perGroup(group, field(override, body, "content_policy_fallbacks"), "content_policy_fallbacks");
        Map<String, Map<String, Integer>> retryPolicy = retryPolicy(router, override == null ? null : override.get("model_group_retry_policy"));
        JsonNode disable = body.get("disable_fallbacks");
        boolean disableFallbacks = false;
        if (disable != null && !disable.isNull()) {
            if (!disable.isBoolean()) {
                throw invalid("disable_fallbacks", "must be a boolean");
            }
            disableFallbacks = disable.booleanValue();
        }
        Optional<String> strategy = routingStrategy(override);
        if (override == null && numRetries.isEmpty() && timeout.isEmpty() && fallbacks.isEmpty()
                && contextWindow.isEmpty() && contentPolicy.isEmpty() && !disableFallbacks) {
            return CallerOverrides.NONE;
        }
        return new CallerOverrides(numRetries, timeout, fallbacks, contextWindow, contentPolicy, retryPolicy, disableFallbacks,
                strategy, Map.of());
    }

    /**
     * The routing a team's {@code router_settings} asks for its keys' calls to {@code group}:
     * the same fields as {@code router_settings_override}, plus Sluice's
     * {@code deployment_weights}. The key and team API checked them when they were written; a
     * part no longer valid (a fallback group since removed) is left out with a warning rather
     * than refusing every call of the team.
     */
    public CallerOverrides readTeam(String teamId, ObjectNode settings, String group) {
        if (settings.isEmpty()) {
            return CallerOverrides.NONE;
        }
        ObjectNode routing = settings.deepCopy();
        JsonNode weightsNode = routing.remove(DEPLOYMENT_WEIGHTS);
        Map<String, Double> weights = new LinkedHashMap<>();
        if (weightsNode != null && weightsNode.isObject()) {
            weightsNode.properties().forEach(entry -> {
                double weight = entry.getValue().doubleValue();
                if (entry.getValue().isNumber() && weight >= 0 && weight <= TeamRouterSettings.MAX_WEIGHT) {
                    weights.put(entry.getKey(), weight);
                }
            });
        }
        ObjectNode body = routing.objectNode();
        body.set(OVERRIDE, routing);
        CallerOverrides team;
        try {
            team = read(body, MultiMap.caseInsensitiveMultiMap(), group);
        } catch (ApiError e) {
            log.warn("team.router_settings_ignored team_id={} reason={}", teamId, e.getMessage());
            team = CallerOverrides.NONE;
        }
        return new CallerOverrides(team.numRetries(), team.timeout(), team.fallbacks(), team.contextWindowFallbacks(),
                team.contentPolicyFallbacks(), team.modelGroupRetryPolicy(), team.disableFallbacks(), team.routingStrategy(),
                Map.copyOf(weights));
    }

    /** The override's value when it sets the field, else the body's; null when neither does. */
    private static Located field(ObjectNode override, ObjectNode body, String name) {
        if (override != null && override.hasNonNull(name)) {
            return new Located(OVERRIDE + "." + name, override.get(name));
        }
        if (body.hasNonNull(name)) {
            return new Located(name, body.get(name));
        }
        return null;
    }

    private record Located(String path, JsonNode value) {}

    private static Optional<String> routingStrategy(ObjectNode override) {
        JsonNode strategy = override == null ? null : override.get("routing_strategy");
        if (strategy == null || strategy.isNull()) {
            return Optional.empty();
        }
        if (!strategy.isTextual() || !Strategies.NAMES.contains(strategy.textValue())) {
            throw invalid(OVERRIDE + ".routing_strategy", "must be one of: " + String.join(", ", Strategies.NAMES));
        }
        return Optional.of(strategy.textValue());
    }

    private static OptionalInt numRetries(RouterSettings router, Located fromBody, String fromHeader) {
        int value;
        if (fromBody != null) {
            JsonNode n = fromBody.value();
            if (!n.isIntegralNumber() || !n.canConvertToInt() || n.intValue() < 0) {
                throw invalid(fromBody.path(), "must be a non-negative integer, got " + n);
            }
            value = n.intValue();
        } else if (fromHeader != null) {
            try {
                value = Integer.parseInt(fromHeader.trim());
            } catch (NumberFormatException e) {
                value = -1;
            }
            if (value < 0) {
                throw invalid(NUM_RETRIES_HEADER + " header", "must be a non-negative integer, got '" + fromHeader + "'");
            }
        } else {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Math.min(value, router.maxClientNumRetries()));
    }

    private static Optional<Duration> timeout(RouterSettings router, Located fromBody, String fromHeader) {
        double seconds;
        if (fromBody != null) {
            JsonNode n = fromBody.value();
            if (!n.isNumber() || !(n.doubleValue() > 0) || Double.isInfinite(n.doubleValue())) {
                throw invalid(fromBody.path(), "must be a positive number of seconds, got " + n);
            }
            seconds = n.doubleValue();
        } else if (fromHeader != null) {
            try {
                seconds = Double.parseDouble(fromHeader.trim());
            } catch (NumberFormatException e) {
                seconds = -1;
            }
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                throw invalid(TIMEOUT_HEADER + " header", "must be a positive number of seconds, got '" + fromHeader + "'");
            }
        } else {
            return Optional.empty();
        }
        Duration cap = router.maxClientTimeout();
        return Optional.of(seconds * 1e9 >= cap.toNanos() ? cap : Duration.ofNanos((long) (seconds * 1e9)));
    }

    /** The fallbacks the caller gave for {@code group}, or null when it gave none for it. */
    private List<String> fallbacksFor(String group, Located located, String name) {
        Map<String, List<String>> byGroup = perGroup(group, located, name);
        return byGroup.get(group);
    }

    private Map<String, List<String>> perGroup(String group, Located located, String name) {
        if (located == null) {
            return Map.of();
        }
        JsonNode list = located.value();
        if (!list.isArray()) {
            throw invalid(located.path(), "must be a list of model groups or of single-key maps like {\"" + group + "\": [\"other-group\"]}");
        }
        Map<String, List<String>> byGroup = new LinkedHashMap<>();
        List<String> forRequested = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            String path = located.path() + "[" + i + "]";
            if (item.isTextual()) {
                forRequested.add(knownGroup(item.textValue(), path));
            } else if (item.isObject() && item.size() == 1 && item.has("model") && item.get("model").isTextual()) {
                forRequested.add(knownGroup(item.get("model").textValue(), path + ".model"));
            } else if (item.isObject() && item.size() == 1) {
                Map.Entry<String, JsonNode> entry = item.properties().iterator().next();
                byGroup.put(entry.getKey(), groupList(entry.getValue(), path + "." + entry.getKey()));
            } else {
                throw invalid(path, "must be a model group name or a single-key map of a group to its fallback groups");
            }
        }
        if (!forRequested.isEmpty()) {
            byGroup.put(group, List.copyOf(forRequested));
        }
        return Map.copyOf(byGroup);
    }

    private List<String> groupList(JsonNode node, String path) {
        if (!node.isArray()) {
            throw invalid(path, "must be a list of model groups");
        }
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            if (!item.isTextual()) {
                throw invalid(path + "[" + i + "]", "must be a model group name");
            }
            targets.add(knownGroup(item.textValue(), path + "[" + i + "]"));
        }
        return List.copyOf(targets);
    }

    private String knownGroup(String name, String path) {
        if (models.current().find(name).isEmpty()) {
            throw invalid(path, "names no model group: '" + name + "'. Model groups: " + String.join(", ", models.current().names()));
        }
        return name;
    }

    /** A caller's per-class counts are capped like its generic count, so no request can amplify load past the maximum. */
    private static Map<String, Map<String, Integer>> retryPolicy(RouterSettings router, JsonNode node) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        String path = OVERRIDE + ".model_group_retry_policy";
        if (!node.isObject()) {
            throw invalid(path, "must be an object of group to retry policy");
        }
        Map<String, Map<String, Integer>> policies = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> group = it.next();
            if (!group.getValue().isObject()) {
                throw invalid(path + "." + group.getKey(), "must be an object like {\"RateLimitErrorRetries\": 3}");
            }
            Map<String, Integer> policy = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> p = group.getValue().fields(); p.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = p.next();
                JsonNode v = entry.getValue();
                if (!RETRY_POLICY_KEYS.contains(entry.getKey())) {
                    throw invalid(path + "." + group.getKey() + "." + entry.getKey(), "is not a retry policy key; expected one of " + RETRY_POLICY_KEYS);
                }
                if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0) {
                    throw invalid(path + "." + group.getKey() + "." + entry.getKey(), "must be a non-negative integer");
                }
                policy.put(entry.getKey(), Math.min(v.intValue(), router.maxClientNumRetries()));
            }
            policies.put(group.getKey(), Map.copyOf(policy));
        }
        return Map.copyOf(policies);
    }

    private static final List<String> RETRY_POLICY_KEYS = List.of("BadRequestErrorRetries", "AuthenticationErrorRetries",
            "TimeoutErrorRetries", "RateLimitErrorRetries", "ContentPolicyViolationErrorRetries", "InternalServerErrorRetries");

    private static ApiError invalid(String field, String rule) {
        return ApiError.invalidRequest("Invalid '" + field + "': " + rule + ".", field, "invalid_value");
    }
}
