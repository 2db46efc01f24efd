package dev.sluice.accounts;

/**
 * Told when the account API has changed a stored key, team, user, organization or customer, so that what the
 * gateway holds in memory about it (the cached key, its spend counters and rate-limit
 * meters) follows at once in this process. Other replicas see the change when their key
 * cache entry expires.
 */
public interface AccountChanges {

    /** A key was created, changed, blocked or deleted. */
    void keyChanged(String tokenHash);

    /** A team was changed or deleted; keys of the team are read again on their next use. */
    void teamChanged(String teamId);

    /** A customer was created, changed, blocked or deleted. */
    default void customerChanged(String customerId) {}

    /**
     * A user or an organization ({@link dev.sluice.accounts.limits.Scope.User}, {@link dev.sluice.accounts.limits.Scope.Organization})
     * was changed or deleted; every key is read again on its next use.
     */
    default void ownerChanged(dev.sluice.accounts.limits.Scope owner) {}

    AccountChanges NONE = new AccountChanges() {
        @Override
        public void keyChanged(String tokenHash) {}

        @Override
        public void teamChanged(String teamId) {}
    };
}
