package dev.sluice.http;

import io.vertx.core.http.HttpServerRequest;

/**
 * Where a request that sends no key header may still present one: the admin UI's session
 * cookie, honoured only with its CSRF token (the admin UI's {@code CookieSessions}).
 */
@FunctionalInterface
public interface SessionCredentials {
    /**
     * The key the request's session presents, or null when it carries no session. Throws an
     * {@link dev.sluice.wire.ApiError} for a session that is no good (expired, tampered with)
     * or sent without its CSRF token.
     */
    String presentedKey(HttpServerRequest request);
}
