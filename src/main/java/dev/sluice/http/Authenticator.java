package dev.sluice.http;

import dev.sluice.access.AccessControl;
import dev.sluice.access.Caller;
import dev.sluice.api.ApiError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.util.function.Consumer;

/**
 * Finds who sent a request: the key it presents as {@code x-litellm-api-key} (LiteLLM's header
 * for a caller whose {@code Authorization} carries something else; it wins when both are sent),
 * {@code Authorization: Bearer}, {@code x-api-key} or {@code api-key}, checked by
 * {@link AccessControl}. One per event loop.
 */
public final class Authenticator {
    private final Vertx vertx;
    private final AccessControl access;

    public Authenticator(Vertx vertx, AccessControl access) {
        this.vertx = vertx;
        this.access = access;
    }

    /**
     * The caller. When the answer needs the store, the request is paused meanwhile so its body
     * waits in Vert.x's queue: whoever reads the body resumes it once its handlers are set.
     */
    public Future<Caller> caller(HttpServerRequest request) {
        Future<Caller> caller = access.authenticate(presentedKey(request), clientAddress(request), vertx);
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
                Responses.error(request.response(), e);
            } catch (RuntimeException e) {
                Responses.internalError(request.response(), request.path(), e);
            }
        });
    }

    /** The address the request came from (the peer's; behind a proxy, the proxy's), or null. */
    private static String clientAddress(HttpServerRequest request) {
        return request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
    }

    /** LiteLLM's header for the caller's key. */
    public static final String LITELLM_KEY_HEADER = "x-litellm-api-key";

    /** The key a request presents, or null. */
    public static String presentedKey(HttpServerRequest request) {
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
