package dev.sluice.admin;

import dev.sluice.store.StoreException;
import dev.sluice.store.VirtualKey;
import dev.sluice.wire.ApiError;
import java.util.Optional;

/**
 * What a key must satisfy to be stored, whichever route makes it ({@code /key/generate},
 * {@code /key/update}, {@code /user/new}): its team exists, and its alias and the key itself
 * are no other key's, each refused with the same error wherever it is asked.
 */
final class KeyRules {
    private final AccountApi api;

    KeyRules(AccountApi api) {
        this.api = api;
    }

    /** Refuses a key whose team does not exist; {@code before} is the team it had (not checked again). */
    void requireTeam(VirtualKey key, Optional<String> before) {
        Optional<String> team = key.owner().teamId();
        if (team.isPresent() && !team.equals(before)) {
            requireTeam(team.get(), "team_id");
        }
    }

    /** Refuses a team id, given in {@code param}, that no team has. */
    void requireTeam(String teamId, String param) {
        if (api.teams().findById(teamId).isEmpty()) {
            throw ApiError.invalidRequest("Invalid '" + param + "': no team has the id \"" + teamId
                    + "\" (expected: the id of a team made with /team/new).", param, "team_not_found");
        }
    }

    /** Refuses a new key whose alias another key has: checked before anything else of the call is written. */
    void requireFreeAlias(VirtualKey key) {
        Optional<String> alias = key.keyAlias();
        if (alias.isPresent() && api.keys().findByAlias(alias.get()).isPresent()) {
            throw duplicateAlias(alias.get());
        }
    }

    /** A taken unique value, named: the key itself (a chosen key given twice) or its alias. */
    RuntimeException conflict(StoreException e, VirtualKey key) {
        if (e.reason() != StoreException.Reason.CONFLICT) {
            return e;
        }
        Optional<VirtualKey> sameAlias = key.keyAlias().flatMap(alias -> api.keys().findByAlias(alias))
                .filter(other -> !other.tokenHash().equals(key.tokenHash()));
        if (sameAlias.isPresent()) {
            return duplicateAlias(key.keyAlias().get());
        }
        return new ApiError(409, "invalid_request_error", "That key already exists: choose another key, or leave 'key' out "
                + "to have one generated.", "key", "duplicate_key");
    }

    private static ApiError duplicateAlias(String alias) {
        return new ApiError(409, "invalid_request_error", "Invalid 'key_alias': \"" + alias
                + "\" is already another key's alias (expected: an alias no other key has).", "key_alias",
                "duplicate_key_alias");
    }
}
