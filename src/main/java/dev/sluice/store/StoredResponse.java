package dev.sluice.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A response answered through the Responses API, as kept for later calls: what
 * {@code GET /v1/responses/{id}} returns and what a call naming it in
 * {@code previous_response_id} carries forward. A response a deployment's own Responses API
 * made and keeps is recorded too, with no JSON ({@link #vendorKept}): only whose it is, so
 * that no other key continues it.
 *
 * @param id               the response's id ({@code resp_...})
 * @param owner            who may read or delete it, an opaque name the gateway chooses (a
 *                         key's hash, or a fixed name for the master key or an open gateway)
 * @param group            the model group that answered
 * @param createdAt        when it was answered
 * @param expiresAt        from when it is no longer served; after {@code createdAt}
 * @param responseJson     the {@code response} object, as JSON; empty for a response the vendor keeps
 * @param conversationJson the turns a follow-up carries, as a JSON array; empty for a response the vendor keeps
 */
public record StoredResponse(String id, String owner, String group, Instant createdAt, Instant expiresAt,
        String responseJson, String conversationJson) {

    /** The longest id, owner or group the table holds. */
    public static final int MAX_NAME_LENGTH = 255;

    public StoredResponse {
        name("id", id);
        name("owner", owner);
        name("group", group);
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
        expiresAt = Columns.micros(Objects.requireNonNull(expiresAt, "expiresAt"));
        if (!expiresAt.isAfter(createdAt)) {
            throw new IllegalArgumentException("expiresAt: " + expiresAt + " (expected: after createdAt " + createdAt + ")");
        }
        Objects.requireNonNull(responseJson, "responseJson");
        Objects.requireNonNull(conversationJson, "conversationJson");
    }

    /**
     * The record of a response a deployment's own Responses API made (and keeps, with its
     * turns): the gateway handed its id to {@code owner}, and only {@code owner} may name it in
     * {@code previous_response_id}.
     */
    public static StoredResponse vendorKept(String id, String owner, String group, Instant createdAt, Instant expiresAt) {
        return new StoredResponse(id, owner, group, createdAt, expiresAt, "", "");
    }

    /** Whether this records only whose a vendor's response is ({@link #vendorKept}): there is nothing here to serve. */
    public boolean keptByVendor() {
        return responseJson.isEmpty();
    }

    /** Whether it is no longer served at {@code now}: from its expiry on. */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }

    /** The UTF-8 length of its two JSON texts: what keeping it costs, give or take its names. */
    public long sizeBytes() {
        return utf8Length(responseJson) + utf8Length(conversationJson);
    }

    private static void name(String field, String value) {
        Objects.requireNonNull(value, field);
        if (value.isBlank() || value.length() > MAX_NAME_LENGTH) {
            String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
            throw new IllegalArgumentException(field + ": \"" + shown + "\" (expected: 1 to " + MAX_NAME_LENGTH
                    + " characters, not all blank)");
        }
    }

    /** Counted without encoding: a response can be megabytes, and it is measured on every save. */
    static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
