package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.Caller;
import dev.sluice.call.cache.CachedAnswer;
import dev.sluice.router.RouteOutcome;
import dev.sluice.vendors.Providers;
import io.vertx.core.MultiMap;
import java.util.function.LongSupplier;

/**
 * Fills one call's {@link RecentCall} from its events and publishes it to the recent calls
 * when its answer ends (or its caller leaves), once, and only for a call whose caller was
 * known. One per call, on its event loop.
 *
 * @param providers     what masks a deployment's key in a failed attempt's message
 * @param answerHeaders the response's headers, kept as they went out
 */
record RecentCallListener(RecentCall recent, RecentCalls published, Providers providers, LongSupplier nanoTime,
        MultiMap answerHeaders) implements CallListener {

    @Override
    public void callerKnown(Caller caller) {
        recent.caller(caller);
    }

    @Override
    public void decoded(DecodedCall call) {
        recent.group(call.request().group(), call.request().stream());
    }

    @Override
    public void resolved(ResolvedCall call) {
        recent.group(call.group().name());
    }

    @Override
    public void answeredFromCache(CachedAnswer hit, CallEnd end) {
        recent.cached(end);
    }

    @Override
    public void routed(RouteOutcome<Answer> outcome) {
        recent.routed(outcome, providers);
    }

    @Override
    public void settled(CallEnd end, double cost) {
        recent.settled(end, cost);
    }

    @Override
    public void ended(int status) {
        if (recent.ended(status, nanoTime.getAsLong(), answerHeaders)) {
            published.add(recent);
        }
    }
}
