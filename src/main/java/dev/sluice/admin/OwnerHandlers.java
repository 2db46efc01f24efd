package dev.sluice.admin;

import io.vertx.core.Vertx;

/** The user, team member, organization and customer APIs, made together on one event loop. */
public record OwnerHandlers(UserAdminHandlers users, TeamMemberHandlers members, OrganizationAdminHandlers organizations,
        CustomerAdminHandlers customers) {

    /** Create on the event loop whose requests they answer. */
    public static OwnerHandlers of(Vertx vertx, AccountApi api) {
        return new OwnerHandlers(new UserAdminHandlers(vertx, api), new TeamMemberHandlers(vertx, api),
                new OrganizationAdminHandlers(vertx, api), new CustomerAdminHandlers(vertx, api));
    }
}
