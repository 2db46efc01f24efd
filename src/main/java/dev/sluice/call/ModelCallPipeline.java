package dev.sluice.call;

import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.CallTags;
import dev.sluice.accounts.CalledModel;
import dev.sluice.accounts.Caller;
import dev.sluice.accounts.EndUsers;
import dev.sluice.accounts.settings.CallerOverridesReader;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.http.CallIds;
import dev.sluice.http.Drain;
import dev.sluice.http.Hops;
import dev.sluice.http.Replies;
import dev.sluice.http.RequestBodyReader;
import dev.sluice.http.SluiceVersion;
import dev.sluice.model.ModelRequest;
import dev.sluice.router.CallerOverrides;
import dev.sluice.router.Delays;
import dev.sluice.router.FallbackGate;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.RouteOutcome;
import dev.sluice.router.RouteRequest;
import dev.sluice.vendors.entry.IngressCodec;
import dev.sluice.vendors.upstream.UpstreamClient;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonReading;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The path of a model call, as a chain of stages, each taking the {@link CallStage} value the
 * one before it returned and returning its own:
 * <ol>
 *   <li>authenticate: who calls (a master key, a virtual key, or nobody when none is needed):
 *       an {@link AuthenticatedCall};
 *   <li>read the body within its limit, and decode it through the entry API's
 *       {@link IngressCodec}: a {@link DecodedCall};
 *   <li>resolve the group it names, the caller's and its team's routing overrides, and the
 *       guardrails it names: a {@link ResolvedCall};
 *   <li>admit it: model access, budgets and rate limits ({@link dev.sluice.accounts.AccessControl}):
 *       an {@link AdmittedCall};
 *   <li>answer it from the response cache when it holds the answer ({@link CachedCalls});
 *   <li>count what routing reads of it (prompt tokens, cache keys): a {@link RoutedCall};
 *   <li>route it: attempts, retries, sibling failover, fallbacks ({@link dev.sluice.router.Router},
 *       each attempt made by {@link DeploymentCall});
 *   <li>answer: the served answer, or the error routing ended with ({@link CallAnswers}).
 * </ol>
 * Once admitted, a call's ticket is finished however it ends. Each stage tells what it did to
 * the call's {@link CallListener}s (its headers, charge, metrics, recent call and recording),
 * fired at one place. One instance per event loop.
 */
public final class ModelCallPipeline {
    private static final Logger log = LoggerFactory.getLogger(ModelCallPipeline.class);

    private final CallServices services;
    private final CallObservers observers;
    private final LongSupplier nanoTime;
    private final UpstreamClient upstreams;
    private final Authenticator authenticator;
    private final RequestBodyReader bodies;
    private final CallerOverridesReader overrides;
    private final RequestFactsReader facts;
    private final CallAnswers answers;
    private final Delays delays;
    private final Drain drain;
    private final TokenCounter tokenCounter;
    private final CachedCalls cached;
    private final HeaderValues headerValues;
    private final AttemptServices attempts;

    public ModelCallPipeline(Vertx vertx, CallServices services, UpstreamClient upstreams, Authenticator authenticator,
            Drain drain) {
        this.services = services;
        this.observers = services.observers();
        this.nanoTime = services.time().ticker();
        this.drain = drain;
        this.upstreams = upstreams;
        this.authenticator = authenticator;
        this.bodies = new RequestBodyReader(vertx, services.bodies(), nanoTime);
        this.overrides = new CallerOverridesReader(services.router().settings()::current, services.models());
        this.facts = new RequestFactsReader(vertx, services.router().settings()::current);
        AnswerWriter writer = new AnswerWriter(services.providers());
        this.cached = new CachedCalls(services.cache(), writer);
        this.answers = new CallAnswers(new RoutedErrors(services.providers()), cached, writer);
        this.attempts = new AttemptServices(services.providers(), services.guardrails(), services.router().signals(),
                services.router().events(), observers.tracing(), services.instance(), services.time().clock(), nanoTime, writer);
        this.delays = Delays.on(vertx);
        this.tokenCounter = new TokenCounter(vertx, new TokenCounter.Services(services.models(), services.access(),
                services.providers(), services.router().settings(), services.bodies(), services.instance()), upstreams,
                authenticator, bodies);
        this.headerValues = new HeaderValues(services.router().settings()::current);
    }

    /** Counts a call's input tokens without making it ({@link TokenCounter}). */
    public void countTokens(HttpServerRequest request, IngressCodec codec) {
        tokenCounter.handle(request, codec);
    }

    public void handle(HttpServerRequest request, IngressCodec codec) {
        ModelCall call = open(request, codec);
        Future.<Void>succeededFuture()
                .map(v -> refuseLoops(call))
                .compose(v -> authenticator.caller(request))
                .transform(who -> readBody(call, who))
                .compose(this::prepare)
                .map(this::resolve)
                .compose(this::admit)
                .compose(this::admitted)
                .onFailure(t -> fail(call, t));
    }

    /** A call that has come round to this gateway again is answered 508 before anything else is done. */
    private Void refuseLoops(ModelCall call) {
        Hops.check(call.request, services.instance());
        return null;
    }

    /** The stages after admission, whose every ending finishes the call's ticket. */
    private Future<Void> admitted(AdmittedCall admitted) {
        // Even a synchronous throw becomes a failed future that the ending below sees.
        return Future.<Void>succeededFuture()
                .compose(v -> cached.lookUp(admitted))
                .compose(hit -> {
                    if (hit.isPresent()) {
                        return cached.answer(admitted, hit.get());
                    }
                    return count(admitted).compose(routed -> route(routed)
                            .compose(outcome -> answers.answer(routed, outcome)));
                })
                .andThen(done -> finishUnanswered(admitted, done));
    }

    /**
     * The call, with its listeners: its routed headers, its metrics, its place in the recent
     * calls, its recording for the logging callbacks when any is configured, and the extra
     * listener a test may watch it with. Its charge joins them once it is counted.
     */
    private ModelCall open(HttpServerRequest request, IngressCodec codec) {
        String callId = request.response().headers().get(CallIds.HEADER);
        RoutedHeaders headers = new RoutedHeaders(nanoTime, headerValues,
                overhead -> observers.metrics().overhead(codec.name(), overhead));
        request.response().putHeader(SluiceVersion.HEADER, SluiceVersion.CURRENT);
        RecentCall recent = new RecentCall(callId, services.time().clock().millis(), nanoTime.getAsLong());
        CallListeners events = new CallListeners(headers,
                new RequestMeter(observers.metrics(), observers.tracing(), nanoTime, codec.name(), request, callId),
                new RecentCallListener(recent, observers.recentCalls(), services.providers(), nanoTime,
                        request.response().headers()));
        ModelCall call = new ModelCall(request, codec, callId, headers, events);
        if (observers.callbacks().enabled()) {
            events.add(new CallRecording(callId, observers.callbacks(), services.providers(), services.time()));
        }
        events.add(observers.extra().create(callId));
        // A connection closed before the answer ended also ends the response, still reading 200: the caller left.
        Runnable closed = drain.opened(() -> cut(call), Vertx.currentContext());
        call.response.endHandler(v -> {
            closed.run();
            call.ended.tryComplete();
            call.events.ended(call.response.ended() ? call.response.getStatusCode() : CallEnd.CLIENT_CLOSED);
        });
        call.response.closeHandler(v -> {
            closed.run();
            call.ended.tryComplete();
            call.state.onClientGone();
            call.events.ended(CallEnd.CLIENT_CLOSED); // only when the answer had not ended: the caller left first
        });
        return call;
    }

    /**
     * The gateway stopped and its drain deadline ran out with this call still open. A stream
     * whose head went out is counted as cut (503), not as the 200 its head said; the rest
     * is answered 503 when routing sees the call stopped.
     */
    private void cut(ModelCall call) {
        if (call.response.ended() || call.response.closed()) {
            return;
        }
        if (call.response.headWritten()) {
            call.events.cutAfterHead(Drain.cut().status());
        }
        if (!call.admitted()) {
            // Not routed yet (authenticating, reading the body, being admitted): nothing upstream to stop.
            CallerErrors.write(call.response, call.codec, Drain.cut());
        }
        call.state.onCut();
    }

    /**
     * Reads the body once the caller is known, the call holding one of the gateway's slots
     * until it ends (so callers without a key never hold one), and decodes it; a refused
     * caller's body is not read, nor one that finds every slot taken.
     */
    private Future<DecodedCall> readBody(ModelCall call, AsyncResult<Caller> who) {
        Optional<ApiError> full = who.succeeded() ? services.overload().takeSlot() : Optional.empty();
        if (who.succeeded() && full.isEmpty()) {
            call.ended.future().onComplete(done -> services.overload().callEnded());
        }
        // Authentication may have paused the request to read the store: its body waits until read here.
        Future<Buffer> body = who.failed() ? Future.failedFuture(who.cause())
                : full.isPresent() ? Future.failedFuture(full.get()) : bodies.read(call.request, call.ended.future());
        call.request.resume();
        if (who.failed()) {
            return Future.failedFuture(who.cause());
        }
        AuthenticatedCall authenticated = call.reached(new AuthenticatedCall(call, who.result()));
        call.events.callerKnown(who.result());
        return body.map(read -> decode(authenticated, read));
    }

    private DecodedCall decode(AuthenticatedCall authenticated, Buffer body) {
        ModelCall call = authenticated.call();
        // Headers the caller addressed to a vendor (anthropic-beta) ride with the request to its adapter.
        JsonReading json = services.bodies().reading();
        ModelRequest request = call.codec.decode(body, call.request.getHeader("Content-Type"), json)
                .withVendorHeaders(call.request.headers());
        // The tree lives as long as the call: it is held against the body budget beside the bytes.
        services.bodies().holdParsed(json, call.ended.future());
        // An audio file is no prompt: estimates and token counts read the size of the form's text fields only.
        int bodyBytes = request.form().isPresent() ? request.body().toString().length() : body.length();
        DecodedCall decoded = call.reached(new DecodedCall(authenticated, request, bodyBytes));
        call.events.decoded(decoded);
        return decoded;
    }

    /** What the entry API keeps between calls (a Responses call's earlier turns) joins the call. */
    private Future<DecodedCall> prepare(DecodedCall decoded) {
        ModelCall call = decoded.call();
        return call.codec.prepare(decoded.request(), decoded.caller()).map(prepared -> {
            if (prepared == decoded.request()) {
                return decoded;
            }
            DecodedCall joined = call.reached(decoded.asking(prepared));
            call.events.decoded(joined);
            return joined;
        });
    }

    private ResolvedCall resolve(DecodedCall decoded) {
        ModelCall call = decoded.call();
        String asked = decoded.request().group();
        // The team's model_aliases, the key's aliases, then router_settings.model_group_alias, before groups and wildcards are looked up.
        String name = RequestedName.resolve(decoded.caller(), services.router().settings().current().routing().modelGroupAlias(), asked);
        ModelGroup group = services.models().current().find(name)
                .orElseThrow(() -> unknownGroup(decoded.caller(), asked));
        refuseUnservedProviders(decoded.caller(), asked, group);
        CallerOverrides requested = overrides.read(decoded.request().body(), call.request.headers(), group.name());
        ResolvedCall resolved = call.reached(new ResolvedCall(decoded, group, withTeamSettings(decoded.caller(), requested, group),
                RequestedGuardrails.read(decoded.request().body(), services.guardrails()), FallbackRequests.of(decoded.request()),
                cached.plan(call, group, decoded.request())));
        call.events.resolved(resolved);
        return resolved;
    }

    /** A provider Sluice does not serve, which only a wildcard group can name, is refused once the caller may use the name. */
    private void refuseUnservedProviders(Caller caller, String asked, ModelGroup group) {
        WildcardProviders.refusal(asked, group).ifPresent(unserved -> {
            services.access().modelRefusal(caller, new CalledModel(asked, group.name())).ifPresent(refusal -> {
                throw refusal;
            });
            throw unserved;
        });
    }

    /**
     * The error for a group that serves nothing: when the config named it with deployments of
     * providers Sluice does not serve (and the caller may use it), that, else an unknown group.
     */
    private ApiError unknownGroup(Caller caller, String name) {
        if (services.access().mayUse(caller, name)) {
            Optional<ApiError> unserved = services.providers().unservedGroup(name);
            if (unserved.isPresent()) {
                return unserved.get();
            }
        }
        return services.access().unknownGroup(caller, name, services.models().current().names());
    }

    /** The request's own routing overrides over those of the caller's team, when it has any. */
    private CallerOverrides withTeamSettings(Caller who, CallerOverrides requested, ModelGroup group) {
        if (who instanceof Caller.Keyed keyed && keyed.team().isPresent()) {
            return requested.over(overrides.forTeam(keyed.teamRouting(), group.name()));
        }
        return requested;
    }

    private Future<AdmittedCall> admit(ResolvedCall resolved) {
        ModelCall call = resolved.call();
        ModelRequest request = resolved.request();
        List<String> tags = CallTags.of(call.request.getHeader(CallTags.HEADER), request.body(), resolved.caller());
        return services.access().admit(resolved.caller(), new CalledModel(request.group(), resolved.group().name()),
                        CallIds.spendRowId(call.request, call.callId, services.time().clock()), tags, EndUsers.of(request.body()),
                        () -> services.access().admissionEstimate(resolved.group(), request.body(), resolved.decoded().bodyBytes()))
                .map(ticket -> {
                    AdmittedCall admitted = call.reached(new AdmittedCall(resolved, ticket));
                    call.events.admitted(admitted);
                    return admitted;
                });
    }

    /**
     * What routing reads of the request, the cache keys to pin once it is served, and its
     * charge, which hears the call's events from now on.
     */
    private Future<RoutedCall> count(AdmittedCall admitted) {
        ResolvedCall resolved = admitted.resolved();
        ModelCall call = admitted.call();
        return facts.read(resolved.request(), resolved.group(), resolved.overrides().routingStrategy(),
                        resolved.decoded().bodyBytes())
                .map(read -> {
                    CallTokens tokens = new CallTokens(admitted.ticket(), resolved.request(), read.facts(),
                            resolved.decoded().bodyBytes());
                    CallCharge charge = new CallCharge(admitted.ticket(), call.events);
                    call.events.add(charge);
                    // Written for the call as it is now: a Responses call's earlier turns have joined it.
                    return call.reached(new RoutedCall(admitted, read.cacheKeys(), tokens, charge,
                            call.codec.answers(resolved.request(), admitted.caller())));
                });
    }

    private Future<RouteOutcome<Answer>> route(RoutedCall routed) {
        ModelCall call = routed.call();
        ModelGroup group = routed.resolved().group();
        FallbackGate gate = services.access().fallbackGate(routed.caller(), routed.request().body(),
                routed.tokens().promptTokensWith(TokenEncoding.forDeployments(group.deployments())));
        // A wait before a retry is the upstream's doing, not Sluice's overhead.
        Delays timed = wait -> {
            call.events.upstreamWaited(wait.toNanos());
            return delays.after(wait);
        };
        RouteRequest<Answer> request = new RouteRequest<>(call.callId, group, routed.resolved().overrides(), routed.facts(),
                routed.admitted().tags(), new DeploymentCall(attempts, upstreams, routed, cached), timed, call.state::stopped, gate);
        return services.router().route(request).andThen(done -> {
            if (done.succeeded() && done.result().served().isPresent() && done.result().lastGroup().equals(group.name())) {
                // The deployment now holds this conversation's prefix in its provider's cache.
                services.router().preCallChecks().served(done.result().lastDeployment(), routed.cacheKeys());
            }
        });
    }

    /** Whatever ended an admitted call before an answer was accounted (a fault, the caller leaving) ends its ticket. */
    private static void finishUnanswered(AdmittedCall admitted, AsyncResult<Void> done) {
        if (done.failed()) {
            CallState state = admitted.call().state;
            CallEnd end = CallEnd.unserved(admitted.groupName(), state.clientGone() ? CallEnd.CLIENT_CLOSED
                    : state.cut() ? Drain.cut().status() : done.cause() instanceof ApiError e ? e.status() : 500);
            admitted.call().events.settled(end, admitted.ticket().finish(end));
        }
    }


    private void fail(ModelCall call, Throwable t) {
        if (!call.response.headWritten()) {
            call.response.putHeader(AnswerWriter.COST_HEADER, "0.0"); // nothing was served
        }
        if (t instanceof ApiError error) {
            if (!call.admitted()) {
                // Refused before routing (the key, the model, a budget, a limit, the body): the one place all are answered.
                observers.refusals().refused(call.request.path(), call.caller().orElse(null), error);
            }
            CallerErrors.write(call.response, call.codec, error);
            return;
        }
        if (call.response.closed() || t instanceof HttpClosedException) {
            log.debug("request.client_gone call_id={}", call.callId);
            return;
        }
        log.error("request.internal_error where=model_call call_id={}", call.callId, t);
        CallerErrors.write(call.response, call.codec, Replies.internal());
    }
}
