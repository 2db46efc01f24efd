package dev.sluice.admin.ui;

import dev.sluice.wire.ApiError;

/** The errors of admin UI sessions, in OpenAI's shape. */
final class SessionErrors {
    private SessionErrors() {}

    static ApiError noSession() {
        return new ApiError(401, "authentication_error", "No admin UI session: sign in with POST /ui/api/session.", null,
                "no_session");
    }

    static ApiError expired() {
        return new ApiError(401, "authentication_error", "The admin UI session has expired or is not valid; sign in again.",
                null, "session_expired");
    }

    static ApiError csrfInvalid() {
        return new ApiError(403, "permission_error", "A request made with the admin UI's session cookie must send the "
                + "session's csrf_token as X-CSRF-Token.", null, "csrf_token_invalid");
    }

    static ApiError crossSite(String site) {
        return new ApiError(403, "permission_error", "Signing in to the admin UI from another site's page is refused "
                + "(Sec-Fetch-Site: " + site + ").", null, "cross_site_request");
    }

    static ApiError notJson(String type) {
        return new ApiError(415, "invalid_request_error", "Sign in with a JSON body sent as Content-Type: application/json"
                + (type == null ? "; none was sent." : ", not " + type + "."), null, "unsupported_media_type");
    }

    static ApiError masterKeyRequired() {
        return new ApiError(403, "permission_error", "The admin UI needs general_settings.master_key.", null,
                "master_key_required");
    }

    /** A sign-in key that is not a key: the reason as authentication gave it, with the UI's code. */
    static ApiError invalidKey(String reason) {
        return new ApiError(401, "authentication_error", reason, "key", "invalid_key");
    }
}
