package dev.sluice.store;

import java.util.Objects;
import java.util.Optional;

/**
 * The accounts one call's spend is charged to, each absent when the call had none: the
 * virtual key, the key's team and internal user, and the customer the call was made for.
 *
 * @param keyHash the virtual key's {@link VirtualKey#tokenHash()}; empty for the master key or no key
 * @param teamId  the key's team
 * @param userId  the key's internal user
 * @param endUser the customer the call was made for: its body's {@code user}, whose spend it adds to
 */
public record SpendAccounts(Optional<String> keyHash, Optional<String> teamId, Optional<String> userId, Optional<String> endUser) {

    /** A call charged to no account. */
    public static final SpendAccounts NONE = new SpendAccounts(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    public SpendAccounts {
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(teamId, "teamId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(endUser, "endUser");
    }
}
