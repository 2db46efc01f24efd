package dev.sluice.accounts;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The SHA-256 of a presented key, what the master key is compared by in constant time. */
final class KeyDigest {
    /** Each thread's SHA-256, reused: looking one up costs more than hashing a key. {@code digest} resets it. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    });

    private KeyDigest() {}

    static byte[] of(String key) {
        return SHA_256.get().digest(key.getBytes(StandardCharsets.UTF_8));
    }
}
