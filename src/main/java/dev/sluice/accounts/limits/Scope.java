package dev.sluice.accounts.limits;

import java.util.Objects;

/**
 * Whose limits and spend a counter holds: a virtual key, a team, a key's use of one model
 * group ({@code model_rpm_limit}, {@code model_tpm_limit}, {@code model_max_budget}), the
 * internal user that owns keys, a user within one team, an organization of teams, or a
 * customer (the end user a call names in {@code user}).
 * Two scopes are the same counter exactly when they are equal.
 */
public sealed interface Scope {

    /**
     * LiteLLM's name for this kind of scope in its rate-limit descriptors and per-scope
     * headers ({@code x-ratelimit-api_key-remaining-requests}): {@code api_key}, {@code team}
     * or {@code model_per_key}.
     */
    default String descriptor() {
        return switch (this) {
            case Key key -> "api_key";
            case Team team -> "team";
            case KeyModel keyModel -> "model_per_key";
            case User user -> "user";
            case Organization organization -> "organization";
            case EndUser endUser -> "end_user";
            case TeamMember member -> "team_member";
        };
    }

    /**
     * The value LiteLLM prints after the descriptor in a rate-limit message: the id, a key's
     * model group after the key, and a membership as LiteLLM's counter names it, the user then
     * the team.
     */
    default String value() {
        return switch (this) {
            case Key key -> key.keyId();
            case Team team -> team.teamId();
            case KeyModel keyModel -> keyModel.keyId() + ":" + keyModel.modelGroup();
            case User user -> user.userId();
            case Organization organization -> organization.organizationId();
            case EndUser endUser -> endUser.endUserId();
            case TeamMember member -> member.userId() + ":" + member.teamId();
        };
    }

    /** @param keyId the key as the store identifies it (its hash), never the key itself */
    record Key(String keyId) implements Scope {
        public Key {
            Objects.requireNonNull(keyId, "keyId");
        }
    }

    record Team(String teamId) implements Scope {
        public Team {
            Objects.requireNonNull(teamId, "teamId");
        }
    }

    /** @param keyId as in {@link Key} */
    record KeyModel(String keyId, String modelGroup) implements Scope {
        public KeyModel {
            Objects.requireNonNull(keyId, "keyId");
            Objects.requireNonNull(modelGroup, "modelGroup");
        }
    }

    /** An internal user: every key made with its {@code user_id}. */
    record User(String userId) implements Scope {
        public User {
            Objects.requireNonNull(userId, "userId");
        }
    }

    /** An organization: every key of every team in it. */
    record Organization(String organizationId) implements Scope {
        public Organization {
            Objects.requireNonNull(organizationId, "organizationId");
        }
    }

    /** A customer, LiteLLM's end user: every call whose body names it in {@code user}. */
    record EndUser(String endUserId) implements Scope {
        public EndUser {
            Objects.requireNonNull(endUserId, "endUserId");
        }
    }

    /** A user within one team, LiteLLM's team membership: the user's keys of that team, held to {@code max_budget_in_team}. */
    record TeamMember(String teamId, String userId) implements Scope {
        public TeamMember {
            Objects.requireNonNull(teamId, "teamId");
            Objects.requireNonNull(userId, "userId");
        }
    }
}
