package dev.sluice.accounts;

import dev.sluice.accounts.limits.Scope;
import dev.sluice.accounts.spend.SpendCounters;
import java.util.Optional;

/**
 * What the account API's changes do to what this process holds in memory: the cached key, the
 * keys of a team (also after one of its memberships changed), of a user or of an
 * organization's teams, or the customer is dropped, and so are the spend counters of what
 * changed, which are counted again from the store on next use: a changed budget period, or a
 * key, team or owner deleted and made again under the same id, must not inherit the old
 * counts. (Spend still in the spend journal, on its way to the store, is then missed in this
 * process until it is read again.)
 */
record HeldAccountChanges(Optional<KeyDirectory> directory, SpendCounters counters) implements AccountChanges {

    @Override
    public void keyChanged(String tokenHash) {
        directory.ifPresent(d -> d.forget(tokenHash));
        counters.forgetKey(tokenHash);
    }

    @Override
    public void teamChanged(String teamId) {
        directory.ifPresent(d -> d.forgetTeam(teamId));
        counters.forget(new Scope.Team(teamId));
    }

    @Override
    public void customerChanged(String customerId) {
        directory.ifPresent(d -> d.customers().forget(customerId));
        counters.forget(new Scope.EndUser(customerId));
    }

    @Override
    public void ownerChanged(Scope owner) {
        directory.ifPresent(d -> {
            switch (owner) {
                // A membership reaches only the team's keys (each is read with its user's budget in its team).
                case Scope.TeamMember member -> d.forgetTeam(member.teamId());
                // A user's settings reach only the keys it owns.
                case Scope.User user -> d.forgetUser(user.userId());
                // An organization's reach the keys of its teams.
                case Scope.Organization organization -> d.forgetOrganization(organization.organizationId());
                default -> d.forgetAll();
            }
        });
        counters.forget(owner);
    }
}
