package dev.sluice.admin.ui;

import io.vertx.core.http.HttpServerResponse;

/**
 * The headers on every {@code /ui} answer: a Content-Security-Policy that lets the page load
 * only its own scripts, styles and images and talk only to its own origin, and the headers
 * that stop content sniffing, referrers and framing.
 */
public final class UiHeaders {
    public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
            + "object-src 'none'";

    private UiHeaders() {}

    public static void apply(HttpServerResponse response) {
        response.putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .putHeader("X-Content-Type-Options", "nosniff")
                .putHeader("Referrer-Policy", "no-referrer")
                .putHeader("X-Frame-Options", "DENY");
    }

    /** Whether {@code path} is the UI's: {@code /ui} or under {@code /ui/}. */
    public static boolean isUiPath(String path) {
        return path.startsWith("/ui") && (path.length() == 3 || path.charAt(3) == '/');
    }
}
