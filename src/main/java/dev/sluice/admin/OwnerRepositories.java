package dev.sluice.admin;

import dev.sluice.store.CustomerRepository;
import dev.sluice.store.OrganizationRepository;
import dev.sluice.store.TeamMemberRepository;
import dev.sluice.store.UserRepository;
import java.util.Objects;

/** The stored users, team members, organizations and customers the account API manages beside keys and teams. */
public record OwnerRepositories(UserRepository users, TeamMemberRepository members, OrganizationRepository organizations,
        CustomerRepository customers) {
    public OwnerRepositories {
        Objects.requireNonNull(users, "users");
        Objects.requireNonNull(members, "members");
        Objects.requireNonNull(organizations, "organizations");
        Objects.requireNonNull(customers, "customers");
    }
}
