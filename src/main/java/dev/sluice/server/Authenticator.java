package dev.sluice.server;

import dev.sluice.api.ApiError;
import dev.sluice.config.Secret;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * Decides whether a caller may use the API. With no master key configured every caller may;
 * with one, a call must present it as {@code Authorization: Bearer}, {@code x-api-key} or
 * {@code api-key}. Keys are compared as SHA-256 digests with a constant-time comparison, so
 * neither the length nor a matching prefix of the master key leaks through timing.
 */
final class Authenticator {
    private final byte[] masterKeyDigest;

    Authenticator(Optional<Secret> masterKey) {
        this.masterKeyDigest = masterKey.map(k -> digest(k.value())).orElse(null);
    }

    boolean required() {
        return masterKeyDigest != null;
    }

    /** Throws a 401 {@link ApiError} unless the request may go on. */
    void check(HttpServerRequest request) {
        if (masterKeyDigest == null) {
            return;
        }
        String presented = presentedKey(request);
        if (presented == null) {
            throw ApiError.unauthorized("No API key provided. Send it as 'Authorization: Bearer <key>', 'x-api-key' or 'api-key'.");
        }
        if (!MessageDigest.isEqual(masterKeyDigest, digest(presented))) {
            throw ApiError.unauthorized("Invalid API key.");
        }
    }

    /** The key a request presents, or null. */
    static String presentedKey(HttpServerRequest request) {
        String authorization = request.getHeader("Authorization");
        if (authorization != null && !authorization.isBlank()) {
            String value = authorization.strip();
            if (value.regionMatches(true, 0, "Bearer ", 0, 7)) {
                value = value.substring(7).strip();
            }
            return value.isEmpty() ? null : value;
        }
        String apiKey = request.getHeader("x-api-key");
        if (apiKey == null) {
            apiKey = request.getHeader("api-key");
        }
        return apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
    }

    private static byte[] digest(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
