package dev.sluice.admin.ui;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.time.Duration;
import java.util.List;

/**
 * The session cookie: found in a request's {@code Cookie} headers, and written as
 * {@code Set-Cookie} with {@code Path=/; HttpOnly; SameSite=Strict} (and {@code Secure} when
 * the request came over TLS, here or at a proxy that says so in {@code X-Forwarded-Proto}).
 *
 * <p>Its name is {@code sluice_session}, followed by the port when the address the browser
 * used names one ({@code sluice_session_4001}): a browser keeps cookies per host, not per
 * port, so two gateways on {@code localhost:4000} and {@code localhost:4001} would otherwise
 * replace each other's session. Replicas behind one address share the name, as they share
 * the sessions.
 */
public final class SessionCookie {
    /** The name's stem; {@link #nameFor} adds the port. */
    public static final String NAME = "sluice_session";

    private SessionCookie() {}

    /**
     * The cookie's name for the address the browser sent {@code request} to: the first
     * {@code X-Forwarded-Host} when a proxy names it (one that sets {@code Host} to each
     * replica's own address would otherwise give each replica its own name), else {@code Host}.
     */
    public static String nameFor(HttpServerRequest request) {
        String forwarded = request.getHeader("X-Forwarded-Host");
        HostAndPort authority = forwarded == null ? request.authority()
                : HostAndPort.parseAuthority(forwarded.split(",", 2)[0].strip(), -1);
        return authority == null || authority.port() < 0 ? NAME : NAME + "_" + authority.port();
    }

    /** The cookie's value in {@code request}, or null when it sends none (or an empty one). */
    public static String valueIn(HttpServerRequest request) {
        String name = nameFor(request);
        for (String header : request.headers().getAll("Cookie")) {
            for (String pair : header.split(";")) {
                String cookie = pair.strip();
                if (cookie.length() > name.length() && cookie.startsWith(name) && cookie.charAt(name.length()) == '=') {
                    String value = cookie.substring(name.length() + 1).strip();
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
        return nameFor(request) + "=" + sealed + attributes(request) + "; Max-Age=" + maxAge.toSeconds();
    }

    /**
     * The {@code Set-Cookie} values that remove the cookie: its own name's, and the bare
     * {@code sluice_session} a browser may still hold from a version that named every port's
     * cookie so (a replica not yet upgraded would still take it).
     */
    public static List<String> cleared(HttpServerRequest request) {
        String name = nameFor(request);
        String clear = "=" + attributes(request) + "; Max-Age=0";
        return name.equals(NAME) ? List.of(NAME + clear) : List.of(name + clear, NAME + clear);
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
