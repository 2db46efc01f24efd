package dev.sluice.accounts;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.config.WildcardPattern;
import dev.sluice.store.Organization;
import dev.sluice.store.User;
import dev.sluice.wire.ApiError;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which models a key may call, read as LiteLLM reads a key's and a team's {@code models}:
 * <ul>
 *   <li>an empty list, {@code all-proxy-models} or {@code *} allows every model; a key's
 *       {@code all-team-models} allows what its team allows;
 *   <li>a group's name allows that group;
 *   <li>an entry with a {@code *} ({@code openai/*}) allows every name it matches;
 *   <li>the name of a {@code model_info.access_groups} entry allows every group in that access group.
 * </ul>
 * A call passes a list when either the name it asked for or the group serving it passes
 * (LiteLLM's rule for an alias: the alias or the model it stands for). A key of a team must
 * pass its own list, its team's, its user's and its team's organization's (each that has one).
 * A refusal is LiteLLM's 403.
 */
final class ModelAccess {
    static final String ALL_PROXY_MODELS = "all-proxy-models";
    /**
     * The wildcard entries of keys', teams' and owners' model lists, compiled once each: they
     * are read on every call. Bounded, as the lists are written through the admin API.
     */
    private static final Cache<String, WildcardPattern> PATTERNS = Caffeine.newBuilder().maximumSize(4_096).build();
    static final String ALL_TEAM_MODELS = "all-team-models";

    private ModelAccess() {}

    static boolean allows(Caller.Keyed caller, CalledModel called, Map<String, List<String>> accessGroups) {
        return refusal(caller, called, accessGroups).isEmpty();
    }

    /** The 403 for a model the key or its team may not call; empty when it may. */
    static Optional<ApiError> refusal(Caller.Keyed caller, CalledModel called, Map<String, List<String>> accessGroups) {
        List<String> keyModels = caller.key().models();
        if (!keyModels.contains(ALL_TEAM_MODELS) && !grants(keyModels, called, accessGroups)) {
            return Optional.of(denied("key", keyModels, called.asked()));
        }
        if (caller.team().isPresent()) {
            List<String> teamModels = caller.team().get().models();
            if (!grants(teamModels, called, accessGroups)) {
                return Optional.of(denied("team", teamModels, called.asked()));
            }
        }
        Optional<User> user = caller.owners().user();
        if (user.isPresent() && !grants(user.get().models(), called, accessGroups)) {
            return Optional.of(denied("user", user.get().models(), called.asked()));
        }
        Optional<Organization> organization = caller.owners().organization();
        if (organization.isPresent() && !grants(organization.get().models(), called, accessGroups)) {
            return Optional.of(denied("organization", organization.get().models(), called.asked()));
        }
        return Optional.empty();
    }

    private static boolean grants(List<String> models, CalledModel called, Map<String, List<String>> accessGroups) {
        if (models.isEmpty() || models.contains(ALL_PROXY_MODELS) || models.contains("*")) {
            return true;
        }
        return grants(models, called.asked(), accessGroups) || grants(models, called.group(), accessGroups);
    }

    private static boolean grants(List<String> models, String name, Map<String, List<String>> accessGroups) {
        for (String entry : models) {
            if (entry.equals(name)
                    || WildcardPattern.isPattern(entry) && PATTERNS.get(entry, WildcardPattern::of).matches(name)
                    || accessGroups.getOrDefault(entry, List.of()).contains(name)) {
                return true;
            }
        }
        return false;
    }

    /** LiteLLM's wording, its list written as Python writes one: {@code models=['a', 'b']}. */
    private static ApiError denied(String who, List<String> models, String asked) {
        String listed = models.stream().map(m -> "'" + m + "'").collect(Collectors.joining(", ", "[", "]"));
        return new ApiError(403, who + "_model_access_denied", who + " not allowed to access model. This " + who
                + " can only access models=" + listed + ". Tried to access " + asked, "model", "403");
    }
}
