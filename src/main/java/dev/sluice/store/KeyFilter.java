package dev.sluice.store;

import java.util.Objects;
import java.util.Optional;

/** Which keys a listing holds: all, or those of one team, one user, or both. */
public record KeyFilter(Optional<String> teamId, Optional<String> userId) {
    public static final KeyFilter ALL = new KeyFilter(Optional.empty(), Optional.empty());

    public KeyFilter {
        Objects.requireNonNull(teamId, "teamId");
        Objects.requireNonNull(userId, "userId");
    }

    public static KeyFilter team(String teamId) {
        return new KeyFilter(Optional.of(teamId), Optional.empty());
    }

    public static KeyFilter user(String userId) {
        return new KeyFilter(Optional.empty(), Optional.of(userId));
    }
}
