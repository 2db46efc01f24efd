package dev.sluice.accounts;

import dev.sluice.http.ClientAddresses;
import dev.sluice.http.Replies;
import dev.sluice.http.SessionCredentials;
import dev.sluice.wire.ApiError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.util.function.Consumer;

/**
 * Finds who sent a request: the key it presents as {@code x-litellm-api-key} (LiteLLM's header
 * for a caller whose {@code Authorization} carries something else; it wins when both are sent),
 * {@code Authorization: Bearer}, {@code x-api-key} or {@code api-key}, checked by
 * {@link AccessControl}. A request with none of these may present the key of its admin UI
 * session ({@link SessionCredentials}); a key header always wins over the session. One per
 * event loop.
 */
public final class Authenticator {
    private final Vertx vertx;
    private final AccessControl access;
    private final SessionCredentials sessions;
    private final ClientAddresses addresses;

    public Authenticator(Vertx vertx, AccessControl access, SessionCredentials sessions, ClientAddresses addresses) {
        this.vertx = vertx;
        this.access = access;
        this.sessions = sessions;
        this.addresses = addresses;
    }

    /**
     * The caller. When the answer needs the store, the request is paused meanwhile so its body
     * waits in Vert.x's queue: whoever reads the body resumes it once its handlers are set.
     */
    public Future<Caller> caller(HttpServerRequest request) {
        String presented;
        try {
            presented = presentedKey(request);
        } catch (ApiError refused) {
            return Future.failedFuture(refused);
        }
        return callerOf(presented, request);
    }

    /**
     * Who {@code presented} is, as {@link #caller} finds it, for a key sent in {@code request}'s
     * body (the admin UI's sign-in): failures count against the request's address alike.
     */
    public Future<Caller> callerOf(String presented, HttpServerRequest request) {
        Future<Caller> caller = access.authenticate(presented, addresses.of(request), vertx);
        if (!caller.isComplete()) {
            request.pause();
        }
        return caller;
    }

    /**
     * Runs {@code handler} with the request's caller, on the request's event loop, or answers
     * the error that refused it. An {@link ApiError} the handler throws is its answer; any
     * other failure is a fault (a 500 naming the route).
     */
    public void withCaller(HttpServerRequest request, Consumer<Caller> handler) {
        caller(request).onComplete(who -> {
            request.resume();
            try {
                if (who.failed()) {
                    throw who.cause() instanceof ApiError e ? e
                            : new ApiError(500, "server_error", "Sluice could not check the key.", null, "internal_error");
                }
                handler.accept(who.result());
            } catch (ApiError e) {
                Replies.error(request.response(), e);
            } catch (RuntimeException e) {
                Replies.internalError(request.response(), request.path(), e);
            }
        });
    }

    /** LiteLLM's header for the caller's key. */
    public static final String LITELLM_KEY_HEADER = "x-litellm-api-key";

    /**
     * The key a request presents, or null: its key header's, else its session's. Throws the
     * {@link ApiError} of a session cookie that is no good or lacks its CSRF token. A request
     * with a key header never has its cookies read.
     */
    public String presentedKey(HttpServerRequest request) {
        String header = headerKey(request);
        return header != null ? header : sessions.presentedKey(request);
    }

    /** {@link #presentedKey}, or null where that refuses the request: for routes that need no key. */
    public String presentedKeyOrNone(HttpServerRequest request) {
        try {
            return presentedKey(request);
        } catch (ApiError refused) {
            return null;
        }
    }

    /** The key a request's key header presents, or null. */
    public static String headerKey(HttpServerRequest request) {
        String authorization = request.getHeader(LITELLM_KEY_HEADER);
        if (authorization == null || authorization.isBlank()) {
            authorization = request.getHeader("Authorization");
        }
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
}
