package dev.sluice.admin.ui;

import dev.sluice.config.Secret;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals admin UI sessions into cookie values and opens them again, with no storage: the
 * cookie is the session, encrypted and authenticated with AES-256-GCM.
 *
 * <p>Design notes. The sealing key is derived from the master key by HMAC-SHA256 over a fixed
 * label, so every replica sharing the master key opens every replica's sessions, and changing
 * the master key ends them all. Without a master key a random key of this process is used
 * (the UI then refuses sign-in anyway). The CSRF token is an HMAC, under a second derived key,
 * of the session's random id: the server checks it from the cookie alone, and a page of
 * another origin can neither read the HttpOnly cookie nor compute the token. Sealed layout:
 * {@code version(1) | nonce(12) | AES-GCM(id(16) | issued(8) | expires(8) | key UTF-8)},
 * base64url without padding. Thread-safe.
 */
public final class SessionSeal {
    /** How long a session lasts. */
    public static final Duration LIFETIME = Duration.ofHours(8);

    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int ID_BYTES = 16;
    private static final int TAG_BITS = 128;
    /** Past this a cookie value is not even decoded: a sealed session is far smaller. */
    private static final int LONGEST_SEALED = 4096;
    private static final byte[] ASSOCIATED = "sluice_session".getBytes(StandardCharsets.US_ASCII);
    /** This process's own secret, for a gateway without a master key. */
    private static final byte[] PROCESS_SECRET = randomBytes(32);

    private final SecretKeySpec sealingKey;
    private final SecretKeySpec csrfKey;
    private final Clock clock;
    private final Duration lifetime;
    private final SecureRandom random = new SecureRandom();

    SessionSeal(byte[] secret, Clock clock, Duration lifetime) {
        this.sealingKey = new SecretKeySpec(hmac(secret, "sluice ui session sealing key v1"), "AES");
        this.csrfKey = new SecretKeySpec(hmac(secret, "sluice ui csrf key v1"), "HmacSHA256");
        this.clock = clock;
        this.lifetime = lifetime;
    }

    /** The seal of a gateway with {@code masterKey} (a random one of this process without), its time read from {@code clock}. */
    public static SessionSeal of(Optional<Secret> masterKey, Clock clock) {
        byte[] secret = masterKey.map(k -> k.value().getBytes(StandardCharsets.UTF_8)).orElse(PROCESS_SECRET);
        return new SessionSeal(secret, clock, LIFETIME);
    }

    /** A new session of {@code key}, issued now. */
    public Session open(String key) {
        byte[] id = new byte[ID_BYTES];
        random.nextBytes(id);
        // Whole seconds: what the sealed form keeps.
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        return new Session(id, key, now, now.plus(lifetime));
    }

    /** The cookie value holding {@code session}. */
    public String seal(Session session) {
        byte[] key = session.key().getBytes(StandardCharsets.UTF_8);
        ByteBuffer plain = ByteBuffer.allocate(ID_BYTES + 16 + key.length)
                .put(session.id())
                .putLong(session.issuedAt().getEpochSecond())
                .putLong(session.expiresAt().getEpochSecond())
                .put(key);
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, sealingKey, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(ASSOCIATED);
            byte[] sealed = cipher.doFinal(plain.array());
            ByteBuffer out = ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(VERSION).put(nonce).put(sealed);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK", e);
        }
    }

    /**
     * The session {@code value} holds; empty when it was not sealed by this seal's key (forged,
     * tampered with, or sealed under another master key), is malformed, or has expired.
     */
    public Optional<Session> unseal(String value) {
        if (value == null || value.isEmpty() || value.length() > LONGEST_SEALED) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(value);
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
        if (bytes.length < 1 + NONCE_BYTES + TAG_BITS / 8 + ID_BYTES + 16 || bytes[0] != VERSION) {
            return Optional.empty();
        }
        byte[] plain;
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, sealingKey, new GCMParameterSpec(TAG_BITS, bytes, 1, NONCE_BYTES));
            cipher.updateAAD(ASSOCIATED);
            plain = cipher.doFinal(bytes, 1 + NONCE_BYTES, bytes.length - 1 - NONCE_BYTES);
        } catch (GeneralSecurityException notOurs) {
            return Optional.empty();
        }
        ByteBuffer read = ByteBuffer.wrap(plain);
        byte[] id = new byte[ID_BYTES];
        read.get(id);
        Instant issuedAt = Instant.ofEpochSecond(read.getLong());
        Instant expiresAt = Instant.ofEpochSecond(read.getLong());
        String key = new String(plain, read.position(), read.remaining(), StandardCharsets.UTF_8);
        if (!clock.instant().isBefore(expiresAt)) {
            return Optional.empty();
        }
        return Optional.of(new Session(id, key, issuedAt, expiresAt));
    }

    /** The CSRF token of {@code session}: what the UI sends as {@code X-CSRF-Token}. */
    public String csrfToken(Session session) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(csrfKey);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(session.id()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }

    /** Whether {@code token} (null when none was sent) is {@code session}'s CSRF token, compared in constant time. */
    public boolean csrfMatches(Session session, String token) {
        return token != null && MessageDigest.isEqual(csrfToken(session).getBytes(StandardCharsets.US_ASCII),
                token.strip().getBytes(StandardCharsets.UTF_8));
    }

    /** How long {@code session} has left in whole seconds, rounded up, for the cookie's {@code Max-Age}. */
    public Duration remaining(Session session) {
        Duration left = Duration.between(clock.instant(), session.expiresAt());
        if (left.isNegative()) {
            return Duration.ZERO;
        }
        return Duration.ofSeconds(left.toSeconds() + (left.toNanosPart() > 0 ? 1 : 0));
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    private static byte[] hmac(byte[] secret, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }
}
