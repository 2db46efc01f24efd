package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.call.cache.CachePlan;
import dev.sluice.call.cache.CachedAnswer;
import dev.sluice.call.cache.ResponseCache;
import dev.sluice.http.Drain;
import dev.sluice.model.ModelRequest;
import dev.sluice.router.ModelGroup;
import dev.sluice.vendors.entry.StreamEncoding;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClosedException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The response cache on the model-call path: plans each call's use of it once its group is
 * known, answers a hit before routing, and stores what a miss was answered before the caller
 * has the end of it, so a request sent after a call has ended finds its answer.
 *
 * <p>A cacheable call's answer says its key in {@code x-sluice-cache-key}; a hit also says it
 * in {@code x-litellm-cache-key}, which LiteLLM sends only on a hit and which its clients read
 * as the sign of one. A hit costs nothing ({@code x-litellm-response-cost: 0.0}), leaves a spend
 * row marked as a hit, and a stream's hit is replayed as the stream it was, {@code [DONE]} and
 * all. Only an answer served whole, or a stream that ended cleanly, is stored: never an error,
 * a stream cut short, or an answer a guardrail refused (none of them is served).
 */
final class CachedCalls {
    static final String HIT_HEADER = "x-litellm-cache-key";
    static final String KEY_HEADER = "x-sluice-cache-key";

    private final Optional<ResponseCache> cache;
    private final AnswerWriter writer;

    /** @param writer what writes a hit, as every answer is written */
    CachedCalls(Optional<ResponseCache> cache, AnswerWriter writer) {
        this.cache = cache;
        this.writer = writer;
    }

    /** What the cache does for the call of {@code group}, once it is resolved; the key goes on the answer. */
    Optional<CachePlan> plan(ModelCall call, ModelGroup group, ModelRequest request) {
        Optional<CachePlan> plan = cache.flatMap(c -> c.plan(call.codec.name(), call.codec.dialect(), call.codec.operation(),
                group.name(), request));
        plan.ifPresent(p -> call.response.putHeader(KEY_HEADER, p.key()));
        return plan;
    }

    /** The answer already in the cache for the call, if any; once admitted, the call's spend row names its key. */
    Future<Optional<CachedAnswer>> lookUp(AdmittedCall admitted) {
        Optional<CachePlan> plan = admitted.resolved().cachePlan();
        if (cache.isEmpty() || plan.isEmpty()) {
            return Future.succeededFuture(Optional.empty());
        }
        admitted.ticket().cacheKey(plan.get().key());
        return cache.get().lookUp(plan.get());
    }

    /**
     * Answers the call from the cache: no deployment is called, and nothing is charged. A caller
     * that left, or a gateway that stopped, while the cache was read fails the call as after a
     * miss: the pipeline's ending logs it as gone (or cut) and finishes its ticket.
     */
    Future<Void> answer(AdmittedCall admitted, CachedAnswer hit) {
        ModelCall call = admitted.call();
        if (call.state.stopped()) {
            return Future.failedFuture(call.state.clientGone() ? new HttpClosedException("the caller left") : Drain.cut());
        }
        CallEnd end = new CallEnd(admitted.groupName(), Optional.empty(), hit.promptTokens(), hit.completionTokens(), hit.status());
        admitted.ticket().finishFromCache(end);
        call.events.answeredFromCache(hit, end);
        writer.fromCache(admitted, admitted.resolved().cachePlan().orElseThrow().key(), hit);
        return Future.succeededFuture();
    }

    /**
     * Stores a whole answer (JSON, or a stream written whole) of {@code group} before it is
     * written; completes either way.
     */
    Future<Void> storeWhole(ResolvedCall call, String group, Answer.Whole whole) {
        if (!stores(call, group)) {
            return Future.succeededFuture();
        }
        return cache.get().store(call.cachePlan().get(), new ResponseCache.Answered(whole.status(), whole.contentType(),
                whole.usage().promptTokens(), whole.usage().completionTokens(), whole.body().getBytes()));
    }

    /**
     * {@code encoding}, copying what it writes for the caller so that a stream that ends cleanly
     * is stored before its last bytes go out; {@code encoding} itself when nothing is stored.
     *
     * @param group the group whose deployment streams: a fallback group's answer is not stored
     *              under the key of the group the caller asked for
     */
    StreamEncoding storing(ResolvedCall call, String group, StreamEncoding encoding, int status, Supplier<TokenUsage> usage) {
        if (!stores(call, group)) {
            return encoding;
        }
        ResponseCache responses = cache.get();
        CachePlan plan = call.cachePlan().get();
        StreamCopy copy = new StreamCopy(encoding, responses, copied -> {
            TokenUsage used = usage.get();
            return responses.store(plan, new ResponseCache.Answered(status, CachedAnswer.EVENT_STREAM, used.promptTokens(),
                    used.completionTokens(), copied));
        });
        call.call().ended.future().onComplete(ended -> copy.release());
        return copy;
    }

    /**
     * Whether what {@code group} answers the call is stored: only the requested group's answer
     * is (a fallback's would answer every later request to the group for its whole ttl).
     */
    private boolean stores(ResolvedCall call, String group) {
        return cache.isPresent() && call.cachePlan().isPresent() && call.cachePlan().get().write()
                && group.equals(call.group().name());
    }
}
