package dev.sluice.admin;

import dev.sluice.accounts.AccountChanges;
import dev.sluice.accounts.limits.Scope;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys, teams, users, organizations and customers one API call wrote, collected by its store work on a worker and told
 * to {@link AccountChanges} on the event loop once the work ends, whether or not the rest
 * of the call succeeded: a team deletion that removed some keys before failing has still
 * removed them.
 */
final class WrittenAccounts {
    private final List<String> keyHashes = new ArrayList<>();
    private final List<String> teamIds = new ArrayList<>();
    private final List<Scope> owners = new ArrayList<>();
    private final List<String> customerIds = new ArrayList<>();

    void key(String tokenHash) {
        keyHashes.add(tokenHash);
    }

    void team(String teamId) {
        teamIds.add(teamId);
    }

    /** A user, an organization, or a user's membership of a team. */
    void owner(Scope owner) {
        owners.add(owner);
    }

    void customer(String customerId) {
        customerIds.add(customerId);
    }

    void tell(AccountChanges changes) {
        keyHashes.forEach(changes::keyChanged);
        teamIds.forEach(changes::teamChanged);
        owners.forEach(changes::ownerChanged);
        customerIds.forEach(changes::customerChanged);
    }
}
