package dev.sluice.admin.ui;

import dev.sluice.http.SessionCredentials;
import io.vertx.core.http.HttpServerRequest;

/**
 * The admin UI session as a credential: a request's session cookie ({@link SessionCookie}) presents
 * the session's key only when the request also sends the session's CSRF token as
 * {@code X-CSRF-Token}, so a page of another origin that makes the browser send the cookie
 * still cannot act with it. A cookie that does not open (expired, tampered with, sealed
 * under another master key) is a 401 {@code session_expired}; a missing or wrong token a
 * 403 {@code csrf_token_invalid}.
 */
public final class CookieSessions implements SessionCredentials {
    public static final String CSRF_HEADER = "X-CSRF-Token";

    private final SessionSeal seal;

    public CookieSessions(SessionSeal seal) {
        this.seal = seal;
    }

    @Override
    public String presentedKey(HttpServerRequest request) {
        String cookie = SessionCookie.valueIn(request);
        if (cookie == null) {
            return null;
        }
        Session session = seal.unseal(cookie).orElseThrow(SessionErrors::expired);
        if (!seal.csrfMatches(session, request.getHeader(CSRF_HEADER))) {
            throw SessionErrors.csrfInvalid();
        }
        return session.key();
    }
}
