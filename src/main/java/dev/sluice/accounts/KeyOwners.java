package dev.sluice.accounts;

import dev.sluice.store.MemberBudget;
import dev.sluice.store.Organization;
import dev.sluice.store.User;
import java.util.Objects;
import java.util.Optional;

/**
 * Who a key belongs to beyond its team: the internal user of its {@code user_id}, the
 * organization of its team, and the user's budget within the team, each when it exists.
 * Their budgets, model lists and limits apply to every call of the key as the key's and the
 * team's do.
 *
 * @param member the budget of the key's user in the key's team, when it is a member with one
 */
public record KeyOwners(Optional<User> user, Optional<Organization> organization, Optional<MemberBudget> member) {
    /** A key of no stored user, in no organization. */
    public static final KeyOwners NONE = new KeyOwners(Optional.empty(), Optional.empty());

    public KeyOwners {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(organization, "organization");
        Objects.requireNonNull(member, "member");
    }

    /** A key's user and organization, with no budget within the team. */
    public KeyOwners(Optional<User> user, Optional<Organization> organization) {
        this(user, organization, Optional.empty());
    }
}
