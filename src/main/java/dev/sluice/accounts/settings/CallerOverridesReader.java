package dev.sluice.accounts.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.JsonWritten;
import dev.sluice.config.RouterSettings;
import dev.sluice.config.RouterVocabulary;
import dev.sluice.config.Written;
import dev.sluice.router.CallerOverrides;
import dev.sluice.router.ModelRegistry;
import dev.sluice.wire.ApiError;
import io.vertx.core.MultiMap;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what a caller may ask of the router for one request, most specific first:
 * {@code router_settings_override} in the body, then the same fields at the top of the
 * body, then the {@code x-litellm-num-retries} and {@code x-litellm-timeout} headers; and lays
 * it over the caller's team settings ({@link TeamRouting}). Every value is read by the
 * {@link RouterVocabulary}'s rules, a wrong one a 400 naming the field. A count or timeout
 * above the configured maxima ({@code max_client_num_retries}, {@code max_client_timeout}) is
 * cut to them. Fallback lists may also name bare groups, which fall back from the group called.
 */
public final class CallerOverridesReader {
    public static final String NUM_RETRIES_HEADER = "x-litellm-num-retries";
    public static final String TIMEOUT_HEADER = "x-litellm-timeout";
    private static final String OVERRIDE = "router_settings_override";
    private static final Logger log = LoggerFactory.getLogger(CallerOverridesReader.class);
    private static final RouterVocabulary UNCHECKED = RouterVocabulary.unchecked();

    private final Supplier<RouterSettings> settings;
    private final ModelRegistry models;

    /** @param settings the router settings in effect, whose caps ({@code max_client_*}) are read once per call */
    public CallerOverridesReader(Supplier<RouterSettings> settings, ModelRegistry models) {
        this.settings = settings;
        this.models = models;
    }

    /** The overrides a request to {@code group} asks for. */
    public CallerOverrides read(ObjectNode body, MultiMap headers, String group) {
        RouterSettings router = settings.get();
        ObjectNode override = override(body);
        CallerOverrides.Builder overrides = CallerOverrides.builder();
        Optional<Integer> numRetries = UNCHECKED.count(field(override, body, RouterVocabulary.NUM_RETRIES)
                .orElseGet(() -> JsonWritten.header(headers.get(NUM_RETRIES_HEADER), NUM_RETRIES_HEADER)));
        numRetries.ifPresent(n -> overrides.numRetries(OptionalInt.of(Math.min(n, router.retries().maxClientNumRetries()))));
        Optional<Duration> timeout = UNCHECKED.timeout(field(override, body, RouterVocabulary.TIMEOUT)
                .orElseGet(() -> JsonWritten.header(headers.get(TIMEOUT_HEADER), TIMEOUT_HEADER)));
        Duration maxTimeout = router.timeouts().maxClientTimeout();
        overrides.timeout(timeout.map(t -> t.compareTo(maxTimeout) > 0 ? maxTimeout : t));
        overrides.fallbacks(fallbacks(field(override, body, RouterVocabulary.FALLBACKS), group).map(byGroup -> byGroup.get(group)));
        overrides.contextWindowFallbacks(fallbacks(field(override, body, RouterVocabulary.CONTEXT_WINDOW_FALLBACKS), group)
                .orElse(Map.of()));
        overrides.contentPolicyFallbacks(fallbacks(field(override, body, RouterVocabulary.CONTENT_POLICY_FALLBACKS), group)
                .orElse(Map.of()));
        overrides.modelGroupRetryPolicy(capped(UNCHECKED.modelGroupRetryPolicy(inOverride(override,
                RouterVocabulary.MODEL_GROUP_RETRY_POLICY)), router.retries().maxClientNumRetries()));
        overrides.routingStrategy(UNCHECKED.routingStrategy(inOverride(override, RouterVocabulary.ROUTING_STRATEGY)));
        overrides.deploymentWeights(UNCHECKED.deploymentWeights(inOverride(override, RouterVocabulary.DEPLOYMENT_WEIGHTS))
                .orElse(Map.of()));
        overrides.disableFallbacks(disableFallbacks(body));
        return overrides.build();
    }

    /**
     * What {@code team}'s settings ask of a call to {@code group}, cut to the configured maxima
     * like a request's. A fallback group since removed from the model list leaves out all but
     * the team's deployment weights, with a warning, rather than refusing every call of the team.
     */
    public CallerOverrides forTeam(TeamRouting team, String group) {
        if (team.isEmpty()) {
            return CallerOverrides.NONE;
        }
        CallerOverrides asked = team.forGroup(group);
        Optional<String> gone = missingGroup(team);
        if (gone.isPresent()) {
            log.warn("team.router_settings_ignored team_id={} reason=fallback group '{}' is not served", team.teamId(), gone.get());
            return CallerOverrides.builder().deploymentWeights(asked.deploymentWeights()).build();
        }
        RouterSettings router = settings.get();
        Duration maxTimeout = router.timeouts().maxClientTimeout();
        return asked.toBuilder()
                .numRetries(asked.numRetries().isPresent()
                        ? OptionalInt.of(Math.min(asked.numRetries().getAsInt(), router.retries().maxClientNumRetries()))
                        : OptionalInt.empty())
                .timeout(asked.timeout().map(t -> t.compareTo(maxTimeout) > 0 ? maxTimeout : t))
                .build();
    }

    private Optional<String> missingGroup(TeamRouting team) {
        List<Map<String, List<String>>> lists = List.of(team.fallbacks(), team.overrides().contextWindowFallbacks(),
                team.overrides().contentPolicyFallbacks());
        return lists.stream().flatMap(byGroup -> byGroup.values().stream()).flatMap(List::stream)
                .filter(target -> models.current().find(target).isEmpty()).findFirst();
    }

    private static ObjectNode override(ObjectNode body) {
        JsonNode node = body.get(OVERRIDE);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!(node instanceof ObjectNode override)) {
            throw ApiError.invalidRequest("Invalid '" + OVERRIDE + "': " + JsonWritten.of(node, OVERRIDE).shown()
                    + " (expected: a JSON object).", OVERRIDE, "invalid_type");
        }
        return override;
    }

    /** The override's value when it sets the field, else the body's; empty when neither does. */
    private static Optional<Written> field(ObjectNode override, ObjectNode body, String name) {
        if (override != null && override.hasNonNull(name)) {
            return Optional.of(JsonWritten.of(override.get(name), OVERRIDE + "." + name));
        }
        if (body.hasNonNull(name)) {
            return Optional.of(JsonWritten.of(body.get(name), name));
        }
        return Optional.empty();
    }

    /** A field only {@code router_settings_override} may set. */
    private static Written inOverride(ObjectNode override, String name) {
        return JsonWritten.of(override == null ? null : override.get(name), OVERRIDE + "." + name);
    }

    private Optional<Map<String, List<String>>> fallbacks(Optional<Written> written, String group) {
        if (written.isEmpty()) {
            return Optional.empty();
        }
        Set<String> targets = new HashSet<>(models.current().names());
        targets.addAll(settings.get().routing().modelGroupAlias().keySet());
        return new RouterVocabulary(targets).fallbacks(written.get(), group);
    }

    private static boolean disableFallbacks(ObjectNode body) {
        Written disable = JsonWritten.of(body.get("disable_fallbacks"), "disable_fallbacks");
        Optional<Written.Scalar> value = disable.scalar();
        if (value.isPresent() && !value.get().value().isBoolean()) {
            disable.problem(value.get().shown(), "true or false");
        }
        return value.isPresent() && value.get().value().booleanValue();
    }

    /** A caller's per-class counts are capped like its generic count, so no request can amplify load past the maximum. */
    private static Map<String, Map<String, Integer>> capped(Map<String, Map<String, Integer>> policies, int max) {
        Map<String, Map<String, Integer>> capped = new LinkedHashMap<>();
        policies.forEach((group, policy) -> {
            Map<String, Integer> counts = new LinkedHashMap<>();
            policy.forEach((name, count) -> counts.put(name, Math.min(count, max)));
            capped.put(group, Map.copyOf(counts));
        });
        return capped;
    }
}
