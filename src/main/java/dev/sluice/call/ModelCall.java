package dev.sluice.call;

import dev.sluice.accounts.CallTicket;
import dev.sluice.accounts.Caller;
import dev.sluice.call.cache.CachePlan;
import dev.sluice.catalog.CachePrefixes.CacheKeys;
import dev.sluice.model.ModelRequest;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.CallerOverrides;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.vendors.entry.AnswerEncoding;
import dev.sluice.vendors.entry.IngressCodec;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One model call, filled stage by stage as {@link ModelCallPipeline} runs: each stage reads
 * what the stages before it set and sets its own part, once. Reading a part before its stage
 * has run is a fault in the pipeline, not a caller's error. What happens to the call is told
 * to its {@link #events}. Touched only on the request's event loop.
 */
final class ModelCall {
    final HttpServerRequest request;
    final HttpServerResponse response;
    /** The entry API the call came in through. */
    final IngressCodec codec;
    final String callId;
    /** What the call has open upstream, so that a hang-up can cancel it. */
    final CallState state;
    /** Where the call's events are fired: its listeners, the headers among them. */
    final CallListeners events;
    /** The routed headers the call's events set, for the answer's writer to apply. */
    final RoutedHeaders headers;
    /** Completed when the response has ended or the caller has gone: the call is done with its body. */
    final Promise<Void> ended = Promise.promise();

    private Caller caller;
    private ModelRequest decoded;
    private AnswerEncoding answers;
    private int bodyBytes;
    private ModelGroup group;
    private CallerOverrides overrides;
    private FallbackRequests fallbackRequests = FallbackRequests.NONE;
    private List<String> guardrails;
    private Optional<CachePlan> cachePlan = Optional.empty();
    private CallTicket ticket;
    private List<String> tags;
    private RequestFacts facts;
    private CacheKeys cacheKeys;
    private CallCharge charge;

    /** @param headers the routed headers, which {@code events} tells too */
    ModelCall(HttpServerRequest request, IngressCodec codec, String callId, RoutedHeaders headers, CallListeners events) {
        this.request = request;
        this.response = request.response();
        this.codec = codec;
        this.callId = callId;
        this.state = new CallState(request.version() == io.vertx.core.http.HttpVersion.HTTP_1_0);
        this.headers = headers;
        this.events = events;
    }

    /** Authenticate: who calls. */
    void authenticated(Caller caller) {
        this.caller = caller;
    }

    /** Decode: the request as its entry API read it, and its size. */
    void decoded(ModelRequest decoded, int bodyBytes) {
        this.decoded = decoded;
        this.bodyBytes = bodyBytes;
        this.answers = null; // written for the call as it is now, when first asked
    }

    /**
     * Resolve: the group it names, what the caller and its team ask of the router, and the
     * guardrails the body names.
     */
    void resolved(ModelGroup group, CallerOverrides overrides, List<String> guardrails) {
        this.group = group;
        this.overrides = overrides;
        this.guardrails = List.copyOf(guardrails);
    }

    /** Resolve: the requests the caller gave its fallback groups of their own ({@link FallbackRequests}). */
    void fallbackRequests(FallbackRequests requests) {
        this.fallbackRequests = requests;
    }

    /** The request an attempt sends: a fallback group's own when the caller gave it one, else the call's. */
    ModelRequest requestFor(AttemptPlan plan) {
        return plan.fallbacksTried() > 0 ? fallbackRequests.forGroup(plan.target(), decoded()) : decoded();
    }

    /** Resolve: what the response cache does for the call. */
    void cachePlanned(Optional<CachePlan> plan) {
        this.cachePlan = plan;
    }

    /** Admit: the caller's ticket, which must be finished however the call ends, and the call's tags. */
    void admitted(CallTicket ticket, List<String> tags) {
        this.ticket = ticket;
        this.tags = List.copyOf(tags);
    }

    /**
     * Count: what routing reads of the request, the cache keys to pin once it is served, and
     * its charge, which hears the call's events from now on.
     */
    void counted(RequestFacts facts, CacheKeys cacheKeys) {
        this.facts = facts;
        this.cacheKeys = cacheKeys;
        this.charge = new CallCharge(ticket(), decoded(), facts, bodyBytes, events);
        events.add(charge);
    }

    Caller caller() {
        return Objects.requireNonNull(caller, "the caller is read before authentication");
    }

    /** The caller, or null while it is not known (not yet authenticated, or refused). */
    Caller callerOrNull() {
        return caller;
    }

    ModelRequest decoded() {
        return Objects.requireNonNull(decoded, "the request is read before it was decoded");
    }

    /** How the caller is written the answer, in its entry API's dialect. */
    AnswerEncoding answers() {
        if (answers == null) {
            answers = codec.answers(decoded(), caller());
        }
        return answers;
    }

    int bodyBytes() {
        return bodyBytes;
    }

    ModelGroup group() {
        return Objects.requireNonNull(group, "the group is read before it was resolved");
    }

    CallerOverrides overrides() {
        return Objects.requireNonNull(overrides, "the overrides are read before they were resolved");
    }

    List<String> guardrails() {
        return Objects.requireNonNull(guardrails, "the guardrails are read before they were resolved");
    }

    /** What the response cache does for the call: empty when it does nothing (or before resolution). */
    Optional<CachePlan> cachePlan() {
        return cachePlan;
    }

    /** The ticket, or null before admission (or when admission refused the call). */
    CallTicket ticketOrNull() {
        return ticket;
    }

    CallTicket ticket() {
        return Objects.requireNonNull(ticket, "the ticket is read before admission");
    }

    /** The call's tags ({@link dev.sluice.accounts.CallTags}): for its spend row and for tag-based routing. */
    List<String> tags() {
        return Objects.requireNonNull(tags, "the tags are read before admission");
    }

    RequestFacts facts() {
        return Objects.requireNonNull(facts, "the facts are read before they were counted");
    }

    CacheKeys cacheKeys() {
        return Objects.requireNonNull(cacheKeys, "the cache keys are read before they were counted");
    }

    CallCharge charge() {
        return Objects.requireNonNull(charge, "the charge is read before the call was counted");
    }
}
