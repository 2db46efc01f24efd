package dev.sluice.limits;

import java.util.Objects;

/**
 * Whose limits and spend a counter holds: a virtual key, a team, or a key's use of one model
 * group ({@code model_rpm_limit}, {@code model_tpm_limit}, {@code model_max_budget}).
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
}
