package dev.sluice.failure;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns each failed upstream outcome into its one {@link Failure}: a call that got no HTTP
 * answer by what broke, an answer by its status and, for a 4xx that could be a context-window
 * or content-policy refusal, by what its body says.
 *
 * <p>The status table: 429 is {@code rate_limited}; 401 and 403 {@code auth}; 404
 * {@code not_found}; 408 and 425 {@code server} (the upstream gave up or was not ready, the
 * request itself may be fine); any other 3xx is {@code not_found}, since a redirect means the
 * deployment's address is wrong and Sluice does not follow it; any other 4xx is
 * {@code context_window}, {@code content_policy} or, most often, {@code rejected}; everything
 * else is {@code server}: 5xx, and statuses no working HTTP server sends. A 2xx is classified
 * {@code server} too, because it reaches here only when its body was unusable.
 *
 * <p>Design notes. Detection of context-window and content-policy refusals is conservative:
 * a body counts only when it carries a code or a phrase that a provider is known to send for
 * exactly that refusal ({@link RefusalSignals}), and only the fields a provider writes are
 * read, never text echoed from the request ({@link ErrorBody}). The reason is the cost of each
 * mistake. Missing a refusal leaves it {@code rejected}: the request still goes to an untried
 * sibling and the caller still gets the upstream's own status and body, so little is lost.
 * Inventing one does real harm: {@code content_policy} stops sibling failover and sends the
 * request to {@code content_policy_fallbacks}, and {@code context_window} limits failover to
 * larger windows, so an ordinary 400 such as "Invalid value for 'temperature'" would be
 * routed as if the prompt itself were the problem. Only 4xx bodies are read: a status the
 * table already settles is not second-guessed by prose.
 */
public final class FailureClassifier {

    private FailureClassifier() {}

    /** A call that got no HTTP answer: refused, broken, or out of time. */
    public static Failure fromTransport(UpstreamFailure failure) {
        FailureClass kind = switch (failure.kind()) {
            case CONNECT, BROKEN -> FailureClass.TRANSPORT;
            case TIMEOUT -> FailureClass.TIMEOUT;
        };
        return new Failure(kind, 0, Buffer.buffer(), Optional.empty(), failure.getMessage());
    }

    /**
     * An HTTP answer that is not a success.
     *
     * @param status  the upstream's status
     * @param body    the upstream's body (kept up to {@link Failure#MAX_BODY_BYTES}, and only
     *                that much is read)
     * @param headers the upstream's headers, for {@code retry-after-ms} and {@code Retry-After}
     * @param now     the instant an HTTP-date in {@code Retry-After} is measured from
     */
    public static Failure fromAnswer(int status, Buffer body, MultiMap headers, Instant now) {
        Buffer kept = body.length() > Failure.MAX_BODY_BYTES ? body.getBuffer(0, Failure.MAX_BODY_BYTES) : body;
        return new Failure(classOf(status, kept), status, kept,
                RetryAfter.parse(headers.get("retry-after-ms"), headers.get("retry-after"), now), "", Failure.copyOf(headers));
    }

    private static FailureClass classOf(int status, Buffer body) {
        if (status == 429) {
            return FailureClass.RATE_LIMITED;
        }
        if (status == 401 || status == 403) {
            return FailureClass.AUTH;
        }
        if (status == 404) {
            return FailureClass.NOT_FOUND;
        }
        if (status == 408 || status == 425) {
            return FailureClass.SERVER;
        }
        if (status >= 300 && status < 400) {
            return FailureClass.NOT_FOUND;
        }
        if (status >= 400 && status < 500) {
            return RefusalSignals.in(ErrorBody.read(body)).orElse(FailureClass.REJECTED);
        }
        return FailureClass.SERVER;
    }
}
