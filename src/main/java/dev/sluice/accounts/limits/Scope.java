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
    String descriptor();

    /** The value LiteLLM prints after the descriptor in a rate-limit message. */
    String value();

    /** @param keyId the key as the store identifies it (its hash), never the key itself */
    record Key(String keyId) implements Scope {
        public Key {
            Objects.requireNonNull(keyId, "keyId");
        }

        @Override
        public String descriptor() {
            return "api_key";
        }

        @Override
        public String value() {
            return keyId;
        }
    }

    record Team(String teamId) implements Scope {
        public Team {
            Objects.requireNonNull(teamId, "teamId");
        }

        @Override
        public String descriptor() {
            return "team";
        }

        @Override
        public String value() {
            return teamId;
        }
    }

    /** @param keyId as in {@link Key} */
    record KeyModel(String keyId, String modelGroup) implements Scope {
        public KeyModel {
            Objects.requireNonNull(keyId, "keyId");
            Objects.requireNonNull(modelGroup, "modelGroup");
        }

        @Override
        public String descriptor() {
            return "model_per_key";
        }

        @Override
        public String value() {
            return keyId + ":" + modelGroup;
        }
    }

    /** An internal user: every key made with its {@code user_id}. */
    record User(String userId) implements Scope {
        public User {
            Objects.requireNonNull(userId, "userId");
        }

        @Override
        public String descriptor() {
            return "user";
        }

        @Override
        public String value() {
            return userId;
        }
    }

    /** An organization: every key of every team in it. */
    record Organization(String organizationId) implements Scope {
        public Organization {
            Objects.requireNonNull(organizationId, "organizationId");
        }

        @Override
        public String descriptor() {
            return "organization";
        }

        @Override
        public String value() {
            return organizationId;
        }
    }

    /** A customer, LiteLLM's end user: every call whose body names it in {@code user}. */
    record EndUser(String endUserId) implements Scope {
        public EndUser {
            Objects.requireNonNull(endUserId, "endUserId");
        }

        @Override
        public String descriptor() {
            return "end_user";
        }

        @Override
        public String value() {
            return endUserId;
        }
    }

    /** A user within one team, LiteLLM's team membership: the user's keys of that team, held to {@code max_budget_in_team}. */
    record TeamMember(String teamId, String userId) implements Scope {
        public TeamMember {
            Objects.requireNonNull(teamId, "teamId");
            Objects.requireNonNull(userId, "userId");
        }

        @Override
        public String descriptor() {
            return "team_member";
        }

        /** As LiteLLM's counter names a membership: the user, then the team. */
        @Override
        public String value() {
            return userId + ":" + teamId;
        }
    }
}
