package dev.sluice.accounts.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.JsonWritten;
import dev.sluice.config.RouterVocabulary;
import dev.sluice.config.Written;
import dev.sluice.router.CallerOverrides;
import dev.sluice.store.Team;
import dev.sluice.wire.ApiError;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A team's {@code router_settings}, read once when the team is read: how the router treats
 * the team's traffic differently from the config's {@code router_settings}. Each value is
 * read by the {@link RouterVocabulary}'s rules; model groups and deployment ids are not
 * checked against the model list, since a team may be set up before its models are added.
 *
 * <ul>
 *   <li>{@code routing_strategy}, {@code num_retries}, {@code timeout};
 *   <li>{@code fallbacks}, {@code context_window_fallbacks}, {@code content_policy_fallbacks}:
 *       in the config's form, {@code [{"gpt-4o": ["gpt-4o-mini"]}]};
 *   <li>{@code deployment_weights}: Sluice's own, {@code {"<deployment id>": weight}}, a
 *       weight per deployment for this team's calls.
 * </ul>
 *
 * @param teamId    the team, to name it in logs
 * @param overrides what the settings ask of every call, but {@code fallbacks}
 * @param fallbacks {@code fallbacks} by group: a call takes those of the group it calls
 */
public record TeamRouting(String teamId, CallerOverrides overrides, Map<String, List<String>> fallbacks) {
    private static final Logger log = LoggerFactory.getLogger(TeamRouting.class);

    /** The name of a team's settings in the team API and the store. */
    public static final String FIELD = "router_settings";

    /** The settings a team may set. */
    public static final List<String> NAMES = List.of(
            RouterVocabulary.ROUTING_STRATEGY,
            RouterVocabulary.NUM_RETRIES,
            RouterVocabulary.TIMEOUT,
            RouterVocabulary.FALLBACKS,
            RouterVocabulary.CONTEXT_WINDOW_FALLBACKS,
            RouterVocabulary.CONTENT_POLICY_FALLBACKS,
            RouterVocabulary.DEPLOYMENT_WEIGHTS);

    public static final TeamRouting NONE = new TeamRouting("", CallerOverrides.NONE, Map.of());

    public TeamRouting {
        Objects.requireNonNull(teamId, "teamId");
        Objects.requireNonNull(overrides, "overrides");
        fallbacks = Map.copyOf(fallbacks);
    }

    /** What a call of {@code group} is asked: these overrides with the group's fallbacks. */
    public CallerOverrides forGroup(String group) {
        List<String> forGroup = fallbacks.get(group);
        return forGroup == null ? overrides : overrides.toBuilder().fallbacks(Optional.of(forGroup)).build();
    }

    public boolean isEmpty() {
        return overrides.equals(CallerOverrides.NONE) && fallbacks.isEmpty();
    }

    /**
     * Checks a team's settings as the team API receives them at {@code path}, and returns
     * them as given to be stored.
     *
     * @throws ApiError a 400 naming the path of the first wrong value
     */
    public static ObjectNode check(JsonNode value, String path) {
        read("", value, path);
        return ((ObjectNode) value).deepCopy();
    }

    /**
     * A stored team's settings. Checked when written, they may still have been written by
     * another version: then they are left out with a warning, rather than refusing every call
     * of the team.
     */
    public static TeamRouting of(Team team) {
        if (team.routerSettings().isEmpty()) {
            return NONE;
        }
        try {
            return read(team.teamId(), team.routerSettings(), FIELD);
        } catch (ApiError e) {
            log.warn("team.router_settings_ignored team_id={} reason={}", team.teamId(), e.getMessage());
            return NONE;
        }
    }

    /** Like {@link #of(Team)}, for a key that may have no team. */
    public static TeamRouting of(Optional<Team> team) {
        return team.map(TeamRouting::of).orElse(NONE);
    }

    private static TeamRouting read(String teamId, JsonNode value, String path) {
        if (!value.isObject()) {
            throw ApiError.invalidRequest("Invalid '" + path + "': " + JsonWritten.of(value, path).shown()
                    + " (expected: a JSON object).", path, "invalid_type");
        }
        RouterVocabulary vocabulary = RouterVocabulary.unchecked();
        CallerOverrides.Builder overrides = CallerOverrides.builder();
        Map<String, List<String>> fallbacks = Map.of();
        for (Map.Entry<String, JsonNode> entry : value.properties()) {
            String name = entry.getKey();
            String settingPath = path + "." + name;
            if (!NAMES.contains(name)) {
                throw ApiError.invalidRequest("Invalid '" + settingPath + "': not a team router setting (expected one of: "
                        + String.join(", ", new TreeSet<>(NAMES)) + ").", settingPath, "unknown_setting");
            }
            Written written = JsonWritten.of(entry.getValue(), settingPath);
            if (written.isAbsent()) {
                written.problem("null", "a value; leave the setting out to use the config's");
            }
            switch (name) {
                case RouterVocabulary.ROUTING_STRATEGY -> overrides.routingStrategy(vocabulary.routingStrategy(written));
                case RouterVocabulary.NUM_RETRIES -> vocabulary.count(written).ifPresent(n -> overrides.numRetries(OptionalInt.of(n)));
                case RouterVocabulary.TIMEOUT -> overrides.timeout(vocabulary.timeout(written));
                case RouterVocabulary.FALLBACKS -> fallbacks = vocabulary.fallbacks(written).orElse(Map.of());
                case RouterVocabulary.CONTEXT_WINDOW_FALLBACKS ->
                        overrides.contextWindowFallbacks(vocabulary.fallbacks(written).orElse(Map.of()));
                case RouterVocabulary.CONTENT_POLICY_FALLBACKS ->
                        overrides.contentPolicyFallbacks(vocabulary.fallbacks(written).orElse(Map.of()));
                default -> overrides.deploymentWeights(vocabulary.deploymentWeights(written).orElse(Map.of()));
            }
        }
        return new TeamRouting(teamId, overrides.build(), fallbacks);
    }
}
