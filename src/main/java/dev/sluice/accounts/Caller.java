package dev.sluice.accounts;

import dev.sluice.accounts.limits.BudgetExceeded;
import dev.sluice.accounts.settings.TeamRouting;
import dev.sluice.model.Required;
import dev.sluice.store.Team;
import dev.sluice.store.VirtualKey;
import java.util.Optional;

/** Who made a request, as authentication found it. */
public sealed interface Caller {

    /** No master key is configured: every request may do everything, and nothing is limited or counted per key. */
    record Open() implements Caller {}

    /** The master key: every API call, no limits, its calls logged without a key. */
    record Admin() implements Caller {}

    /**
     * A virtual key, as the store held it when last read (at most a few seconds ago), with
     * its team when it has one.
     *
     * @param teamRouting the team's router settings, read when the team was read
     * @param presented   the key as the request sent it; kept only to name the key in messages
     *                    by its last four characters
     * @param owners      the key's user and its team's organization, as read with the key
     */
    record Keyed(VirtualKey key, Optional<Team> team, TeamRouting teamRouting, String presented, KeyOwners owners)
            implements Caller {
        public Keyed {
            Required.nonNull("key, team, teamRouting, presented, owners", key, team, teamRouting, presented, owners);
        }

        /** A key of no stored user or organization. */
        public Keyed(VirtualKey key, Optional<Team> team, TeamRouting teamRouting, String presented) {
            this(key, team, teamRouting, presented, KeyOwners.NONE);
        }

        /** A key whose team's router settings are read here. */
        public Keyed(VirtualKey key, Optional<Team> team, String presented) {
            this(key, team, TeamRouting.of(team), presented);
        }

        public String keyHash() {
            return key.tokenHash();
        }

        /** The key as messages name it: its alias and {@code sk-...abcd}. */
        public String label() {
            return BudgetExceeded.keyLabel(key.keyAlias(), presented);
        }
    }

    Caller OPEN = new Open();
    Caller ADMIN = new Admin();

    /** Whether the caller may manage keys, teams and models. */
    default boolean isAdmin() {
        return this instanceof Admin;
    }
}
