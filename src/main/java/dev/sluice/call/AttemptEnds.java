package dev.sluice.call;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.router.AttemptResult;
import dev.sluice.vendors.upstream.UpstreamExchange;
import io.vertx.core.Future;

/** How an attempt that serves nothing ends, said once for the whole, streamed and unit-billed answers. */
final class AttemptEnds {
    private AttemptEnds() {}

    /** The attempt got no (whole) HTTP answer: refused, reset, cut, timed out or abandoned. */
    static Future<AttemptResult<Answer>> unanswered(UpstreamExchange exchange, Throwable cause) {
        return failed(FailureClassifier.fromTransport(exchange.failure(cause)));
    }

    /**
     * The deployment answered with what the caller's entry API has no place for (say, an image
     * in the answer of a caller of Anthropic's API): another deployment may answer otherwise.
     */
    static Failure untranslatable(IllegalArgumentException cause) {
        return Failure.of(FailureClass.SERVER, "answered with what the caller's API cannot carry: " + cause.getMessage());
    }

    static Future<AttemptResult<Answer>> failed(Failure failure) {
        return Future.succeededFuture(AttemptResult.failed(failure));
    }
}
