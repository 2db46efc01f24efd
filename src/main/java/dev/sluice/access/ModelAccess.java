package dev.sluice.access;

import dev.sluice.api.ApiError;
import java.util.List;
import java.util.Optional;

/**
 * Which model groups a key may call: those in its {@code models} and, for a key of a team,
 * also in the team's. An empty list allows every group, as do LiteLLM's
 * {@code all-proxy-models} and {@code *}; a key's {@code all-team-models} allows what its
 * team allows.
 */
final class ModelAccess {
    static final String ALL_PROXY_MODELS = "all-proxy-models";
    static final String ALL_TEAM_MODELS = "all-team-models";

    private ModelAccess() {}

    static boolean allows(Caller.Keyed caller, String group) {
        return refusal(caller, group).isEmpty();
    }

    /** The 401 for a group the key or its team may not call; empty when it may. */
    static Optional<ApiError> refusal(Caller.Keyed caller, String group) {
        List<String> keyModels = caller.key().models();
        boolean teamDecides = keyModels.contains(ALL_TEAM_MODELS);
        if (!teamDecides && !allowsAll(keyModels) && !keyModels.contains(group)) {
            return Optional.of(denied("key", caller.label(), keyModels, group));
        }
        if (caller.team().isPresent()) {
            List<String> teamModels = caller.team().get().models();
            if (!allowsAll(teamModels) && !teamModels.contains(group)) {
                return Optional.of(denied("team", caller.team().get().teamId(), teamModels, group));
            }
        }
        return Optional.empty();
    }

    private static boolean allowsAll(List<String> models) {
        return models.isEmpty() || models.contains(ALL_PROXY_MODELS) || models.contains("*");
    }

    private static ApiError denied(String who, String name, List<String> models, String group) {
        return new ApiError(401, who + "_model_access_denied",
                who.substring(0, 1).toUpperCase() + who.substring(1) + " not allowed to access model. This " + who + " ("
                        + name + ") can only access models=" + models + ". Tried to access " + group + ".",
                "model", "model_access_denied");
    }
}
