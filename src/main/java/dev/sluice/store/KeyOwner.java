package dev.sluice.store;

import java.util.Objects;
import java.util.Optional;

/**
 * Whom a key belongs to: its team, whose budget, limits and models bound it, and its internal
 * user, whose budget all that user's keys share. Either may be absent.
 *
 * @param teamId the {@code team_id} of the key's team
 * @param userId the {@code user_id} of the key's user
 */
public record KeyOwner(Optional<String> teamId, Optional<String> userId) {

    /** A key owned by no one. */
    public static final KeyOwner NONE = new KeyOwner(Optional.empty(), Optional.empty());

    public KeyOwner {
        Objects.requireNonNull(teamId, "teamId");
        Objects.requireNonNull(userId, "userId");
    }
}
