package dev.sluice.vendors.openai.responses.entry;

import dev.sluice.accounts.Caller;

/**
 * Who owns a kept response: the key that made it (by its hash), the master key, or, on a
 * gateway without keys, everyone. A response is found and deleted only by its owner.
 */
final class ResponseOwners {
    private ResponseOwners() {}

    static String of(Caller caller) {
        return switch (caller) {
            case Caller.Keyed keyed -> "key:" + keyed.keyHash();
            case Caller.Admin admin -> "master";
            case Caller.Open open -> "open";
        };
    }
}
