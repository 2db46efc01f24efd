package dev.sluice.admin.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.Caller;
import dev.sluice.http.Replies;
import dev.sluice.http.RequestBodyReader;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonFields;
import dev.sluice.wire.JsonReading;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * {@code /ui/api/session}: {@code POST} signs in with a key (the master key or a virtual key,
 * checked as any presented key is, failures throttled alike) and sets the sealed session
 * cookie; {@code GET} tells the session the cookie holds, its key checked again; {@code DELETE}
 * (with the CSRF token) signs out, clearing the cookie. Each answer but the sign-out's is
 * {@code {"role", "csrf_token", "key_alias", "key_name", "expires_at"}}. One per event loop.
 */
public final class SessionHandlers {
    /** Longer than any key: a longer one is refused without a look-up. */
    private static final int LONGEST_KEY = 2048;

    private final SessionSeal seal;
    private final Authenticator authenticator;
    private final RequestBodyReader bodies;
    private final boolean masterKeySet;

    /**
     * @param bodies       reads the sign-in body, with the API's size limit
     * @param masterKeySet whether {@code general_settings.master_key} is set: without it there
     *                     is nothing to sign in to
     */
    public SessionHandlers(SessionSeal seal, Authenticator authenticator, RequestBodyReader bodies, boolean masterKeySet) {
        this.seal = seal;
        this.authenticator = authenticator;
        this.bodies = bodies;
        this.masterKeySet = masterKeySet;
    }

    public void handle(HttpServerRequest request) {
        request.response().putHeader("Cache-Control", "no-store");
        HttpMethod method = request.method();
        if (method.equals(HttpMethod.POST)) {
            signIn(request);
        } else if (method.equals(HttpMethod.GET)) {
            current(request);
        } else if (method.equals(HttpMethod.DELETE)) {
            signOut(request);
        } else {
            request.response().putHeader("Allow", "POST, GET, DELETE");
            throw new ApiError(405, "invalid_request_error", "Method " + method + " is not allowed on " + request.path()
                    + "; use POST, GET or DELETE.", null, "method_not_allowed");
        }
    }

    private void signIn(HttpServerRequest request) {
        if (!masterKeySet) {
            throw SessionErrors.masterKeyRequired();
        }
        refuseForeignSignIn(request);
        Promise<Void> parsed = Promise.promise();
        bodies.read(request, parsed.future())
                .map(bytes -> keyIn(bytes, bodies.limits().reading()))
                .andThen(done -> parsed.tryComplete())
                .compose(key -> authenticator.callerOf(key, request)
                        .recover(refused -> Future.failedFuture(refused instanceof ApiError e && e.status() == 401
                                ? SessionErrors.invalidKey(e.getMessage()) : refused))
                        .map(caller -> {
                            Session session = seal.open(key);
                            request.response().putHeader("Set-Cookie",
                                    SessionCookie.set(seal.seal(session), seal.remaining(session), request));
                            return body(caller, session);
                        }))
                .onComplete(done -> answer(request, done.succeeded() ? done.result() : null, done.cause()));
    }

    /**
     * Refuses a sign-in another site's page could have sent. Its form may post to this route
     * ({@code enctype="text/plain"} can shape a body that parses as JSON) and the browser keeps
     * the cookie the answer sets, replacing the user's session with one of the other site's
     * choosing. A form cannot send {@code Content-Type: application/json} without a CORS
     * preflight, which this gateway never grants; and a browser names where a request comes
     * from in {@code Sec-Fetch-Site}, which must then be this origin ({@code same-origin}) or
     * the user ({@code none}).
     */
    private static void refuseForeignSignIn(HttpServerRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none")) {
            throw SessionErrors.crossSite(site);
        }
        String type = request.getHeader("Content-Type");
        String media = type == null ? "" : type.split(";", 2)[0].strip();
        if (!media.equalsIgnoreCase("application/json")) {
            throw SessionErrors.notJson(type);
        }
    }

    private void current(HttpServerRequest request) {
        String cookie = SessionCookie.valueIn(request);
        if (cookie == null) {
            throw SessionErrors.noSession();
        }
        Session session = seal.unseal(cookie).orElseThrow(SessionErrors::expired);
        authenticator.callerOf(session.key(), request)
                .map(caller -> body(caller, session))
                .onComplete(done -> answer(request, done.succeeded() ? done.result() : null, done.cause()));
    }

    /** Signs out; with no session, or one no longer valid, there is nothing to protect and the cookie is cleared all the same. */
    private void signOut(HttpServerRequest request) {
        String cookie = SessionCookie.valueIn(request);
        if (cookie != null) {
            seal.unseal(cookie).ifPresent(session -> {
                if (!seal.csrfMatches(session, request.getHeader(CookieSessions.CSRF_HEADER))) {
                    throw SessionErrors.csrfInvalid();
                }
            });
        }
        request.response().putHeader("Set-Cookie", SessionCookie.cleared(request)).setStatusCode(204).end();
    }

    private void answer(HttpServerRequest request, ObjectNode body, Throwable failure) {
        request.resume();
        HttpServerResponse response = request.response();
        if (failure == null) {
            Replies.json(response, 200, Json.buffer(body));
        } else if (failure instanceof ApiError error) {
            response.headers().remove("Set-Cookie");
            Replies.error(response, error);
        } else {
            response.headers().remove("Set-Cookie");
            Replies.internalError(response, request.path(), failure);
        }
    }

    private ObjectNode body(Caller caller, Session session) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        switch (caller) {
            case Caller.Keyed keyed -> body.put("role", "key")
                    .put("csrf_token", seal.csrfToken(session))
                    .put("key_alias", keyed.key().keyAlias().orElse(null))
                    .put("key_name", keyed.key().keyName());
            case Caller.Admin admin -> body.put("role", "admin")
                    .put("csrf_token", seal.csrfToken(session))
                    .putNull("key_alias")
                    .putNull("key_name");
            case Caller.Open open -> throw SessionErrors.masterKeyRequired();
        }
        return body.put("expires_at", session.expiresAt().toString());
    }

    /** The body's {@code key}: a non-empty string. Never echoed in an error. */
    private static String keyIn(Buffer bytes, JsonReading json) {
        JsonNode root = json.parse(bytes).orElse(null);
        if (!(root instanceof ObjectNode body)) {
            throw ApiError.invalidRequest("The body must be a JSON object: {\"key\": \"<master key or virtual key>\"}.", null,
                    "invalid_type");
        }
        JsonNode key = JsonFields.required(body, "key");
        if (!key.isTextual() || key.textValue().isBlank()) {
            throw ApiError.invalidRequest("Invalid 'key': expected a non-empty string.", "key", "invalid_value");
        }
        String presented = key.textValue().strip();
        if (presented.length() > LONGEST_KEY) {
            throw SessionErrors.invalidKey("Invalid API key.");
        }
        return presented;
    }
}
