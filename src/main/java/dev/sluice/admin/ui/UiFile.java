package dev.sluice.admin.ui;

import io.vertx.core.buffer.Buffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One file of the UI held in memory, with its Content-Type and an ETag from its bytes (so a
 * new jar's files are fetched again even when a browser kept the old ones).
 */
record UiFile(Buffer bytes, String contentType, String etag) {

    static UiFile of(byte[] bytes, String contentType) {
        return new UiFile(Buffer.buffer(bytes), contentType, "\"" + digest(bytes) + "\"");
    }

    private static String digest(byte[] bytes) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(bytes);
            return HexFormat.of().formatHex(sha, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Whether an {@code If-None-Match} header value names this file's version. */
    boolean matches(String ifNoneMatch) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String tag : ifNoneMatch.split(",")) {
            String t = tag.strip();
            if (t.startsWith("W/")) {
                t = t.substring(2);
            }
            if (t.equals(etag) || t.equals("*")) {
                return true;
            }
        }
        return false;
    }
}
