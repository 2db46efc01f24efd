package dev.sluice.access;

import dev.sluice.store.Organization;
import dev.sluice.store.User;
import java.util.Objects;
import java.util.Optional;

/**
 * Who a key belongs to beyond its team: the internal user of its {@code user_id} and the
 * organization of its team, each when it exists. Their budgets, model lists and limits apply
 * to every call of the key as the key's and the team's do.
 */
public record KeyOwners(Optional<User> user, Optional<Organization> organization) {
    /** A key of no stored user, in no organization. */
    public static final KeyOwners NONE = new KeyOwners(Optional.empty(), Optional.empty());

    public KeyOwners {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(organization, "organization");
    }
}
