package dev.sluice.ui;

import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;

/**
 * The {@code sluice_session} cookie: found in a request's {@code Cookie} headers, and written
 * as {@code Set-Cookie} with {@code Path=/; HttpOnly; SameSite=Strict} (and {@code Secure}
 * when the request came over TLS, here or at a proxy that says so in {@code X-Forwarded-Proto}).
 */
public final class SessionCookie {
    public static final String NAME = "sluice_session";

    private SessionCookie() {}

    /** The cookie's value in {@code request}, or null when it sends none (or an empty one). */
    public static String valueIn(HttpServerRequest request) {
        for (String header : request.headers().getAll("Cookie")) {
            for (String pair : header.split(";")) {
                String cookie = pair.strip();
                if (cookie.length() > NAME.length() && cookie.startsWith(NAME) && cookie.charAt(NAME.length()) == '=') {
                    String value = cookie.substring(NAME.length() + 1).strip();
                    if (!value.isEmpty()) {
                        return value;
                    }
                }
            }
        }
        return null;
    }

    /** The {@code Set-Cookie} value that holds {@code sealed} for {@code maxAge}. */
    public static String set(String sealed, Duration maxAge, HttpServerRequest request) {
        return NAME + "=" + sealed + attributes(request) + "; Max-Age=" + maxAge.toSeconds();
    }

    /** The {@code Set-Cookie} value that removes the cookie. */
    public static String cleared(HttpServerRequest request) {
        return NAME + "=" + attributes(request) + "; Max-Age=0";
    }

    private static String attributes(HttpServerRequest request) {
        return "; Path=/; HttpOnly; SameSite=Strict" + (overTls(request) ? "; Secure" : "");
    }

    /** Whether the browser reached Sluice over TLS: directly, or through a proxy that ended it. */
    static boolean overTls(HttpServerRequest request) {
        if (request.isSSL()) {
            return true;
        }
        String forwarded = request.getHeader("X-Forwarded-Proto");
        if (forwarded == null) {
            return false;
        }
        int comma = forwarded.indexOf(',');
        return (comma < 0 ? forwarded : forwarded.substring(0, comma)).strip().equalsIgnoreCase("https");
    }
}
