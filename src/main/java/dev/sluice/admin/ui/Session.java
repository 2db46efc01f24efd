package dev.sluice.admin.ui;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * An admin UI session, as its sealed cookie holds it: a random id (what its CSRF token is
 * derived from), the key signed in with, and when it was issued and ends.
 */
public record Session(byte[] id, String key, Instant issuedAt, Instant expiresAt) {
    public Session {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        id = id.clone();
    }

    @Override
    public byte[] id() {
        return id.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Session that && Arrays.equals(id, that.id) && key.equals(that.key)
                && issuedAt.equals(that.issuedAt) && expiresAt.equals(that.expiresAt);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(id);
    }

    /** Never the key. */
    @Override
    public String toString() {
        return "Session[issuedAt=" + issuedAt + ", expiresAt=" + expiresAt + "]";
    }
}
