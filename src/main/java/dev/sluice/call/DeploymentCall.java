package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.call.guardrail.GuardrailRefusal;
import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.failure.UpstreamFailure;
import dev.sluice.http.Drain;
import dev.sluice.http.Hops;
import dev.sluice.model.AnswerText;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.AttemptResult;
import dev.sluice.router.Attempter;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.router.strategy.SignalRecorder;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.entry.AnswerEncoding;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.vendors.upstream.UpstreamClient;
import dev.sluice.vendors.upstream.UpstreamExchange;
import dev.sluice.wire.Json;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One request's attempts at deployments: checks the deployment's guardrails on the prompt,
 * calls the deployment, classifies what went wrong, checks guardrails on the answer, and for
 * a stream commits to the caller at its first event. Everything the router needs to decide
 * comes back as an {@link AttemptResult}. Runs on the request's event loop.
 */
record DeploymentCall(AttemptServices services, UpstreamClient upstreams, RoutedCall routed, CachedCalls cached)
        implements Attempter<Answer> {

    @Override
    public Future<AttemptResult<Answer>> attempt(AttemptPlan plan) {
        Deployment deployment = plan.deployment();
        Optional<GuardrailRefusal> refused = services.guardrails().checkPrompt(deployment, routed.requestFor(plan).body(), routed.guardrails());
        if (refused.isPresent()) {
            return Future.succeededFuture(AttemptResult.failed(GuardrailFailures.of(refused.get())));
        }
        // The deployment has one more call open until this attempt is over, a stream until it ends.
        SignalRecorder signals = services.signals();
        SignalRecorder.Attempt open = signals.attemptStarted(deployment);
        return call(plan).andThen(done -> {
            if (done.succeeded() && done.result() instanceof AttemptResult.Served<Answer> served
                    && served.answer() instanceof Answer.Streaming streaming) {
                streaming.relay().finished().onComplete(end -> open.end());
                return;
            }
            if (done.succeeded() && done.result() instanceof AttemptResult.Failed<Answer> failed
                    && failed.failure().kind() == FailureClass.TIMEOUT) {
                signals.timedOut(deployment);
            }
            open.end();
        });
    }

    private Future<AttemptResult<Answer>> call(AttemptPlan plan) {
        Deployment deployment = plan.deployment();
        Optional<Failure> unset = UnsetVariableFailures.of(deployment);
        if (unset.isPresent()) {
            return failed(unset.get());
        }
        Provider provider = services.providers().forDeployment(deployment);
        Optional<Failure> unserved = CallTypeRefusals.of(provider, deployment, routed.request().operation());
        if (unserved.isPresent()) {
            return failed(unserved.get());
        }
        Optional<String> untranslatable = provider.passesThrough(deployment, routed.requestFor(plan)) ? Optional.empty()
                : routed.answers().refusesTranslation();
        if (untranslatable.isPresent()) {
            return failed(TranslationRefusals.of(new IllegalArgumentException(untranslatable.get())));
        }
        UpstreamRequest laidOut;
        try {
            laidOut = provider.request(deployment, routed.requestFor(plan));
        } catch (IllegalArgumentException refused) {
            // The vendor has no place for what the caller sent: a 400 naming it, as LiteLLM answers.
            return failed(TranslationRefusals.of(refused));
        }
        call().events.attemptLaidOut(laidOut.droppedParams());
        long authorizing = services.nanoTime().getAsLong();
        return provider.authorize(deployment, laidOut).transform(authorized -> {
            call().events.upstreamWaited(services.nanoTime().getAsLong() - authorizing);
            if (authorized.failed()) {
                return failed(CredentialFailures.of(authorized.cause()));
            }
            if (call().state.stopped()) {
                return failed(Failure.of(FailureClass.TRANSPORT, "the caller left or the gateway stopped"));
            }
            return call(plan, provider, traced(authorized.result()));
        });
    }

    private Future<AttemptResult<Answer>> call(AttemptPlan plan, Provider provider, UpstreamRequest upstreamRequest) {
        long opened = services.nanoTime().getAsLong();
        UpstreamExchange exchange = upstreams.open(upstreamRequest, plan.deadline().upstream(routed.requestFor(plan).stream()));
        call().state.opened(exchange);
        return exchange.answered().transform(answered -> {
            call().events.upstreamWaited(services.nanoTime().getAsLong() - opened);
            if (call().state.stopped()) {
                exchange.cancel();
                return unanswered(exchange, new IllegalStateException("the caller left or the gateway stopped"));
            }
            if (answered.failed()) {
                return unanswered(exchange, answered.cause());
            }
            int status = exchange.status();
            if (status < 200 || status >= 300) {
                return exchange.bodyUpTo(Failure.MAX_BODY_BYTES).transform(body -> {
                    if (body.failed()) {
                        return unanswered(exchange, body.cause());
                    }
                    return failed(provider.classify(status, body.result(), exchange.headers(), services.clock().instant()));
                });
            }
            if (!routed.request().operation().everyVendorServes()) {
                return new UnitBilledAnswers(services.signals(), services.nanoTime()).whole(routed, plan, provider, exchange, opened);
            }
            if (routed.requestFor(plan).stream() && provider.streams(exchange.headers())) {
                return stream(plan, provider, exchange, opened);
            }
            return whole(plan, provider, exchange, opened);
        });
    }

    /**
     * The request as it goes upstream: with this gateway's hop mark and, with tracing on, the
     * attempt's trace context, so the upstream's spans join the call's trace.
     */
    private UpstreamRequest traced(UpstreamRequest upstreamRequest) {
        Map<String, String> headers = new LinkedHashMap<>(upstreamRequest.headers());
        services.tracing().ifPresent(t -> headers.putAll(t.upstreamHeaders(call().callId)));
        // Every call upstream carries this gateway's mark, so one that comes back to it is refused at once.
        headers.put(Hops.HEADER, Hops.next(call().request.getHeader(Hops.HEADER), services.instance()));
        return upstreamRequest.withHeaders(headers);
    }

    private Future<AttemptResult<Answer>> stream(AttemptPlan plan, Provider provider, UpstreamExchange exchange,
            long attemptStarted) {
        Deployment deployment = plan.deployment();
        StreamTranslator translator = call().events.streamStarted(provider.streamTranslator(deployment, routed.requestFor(plan)));
        boolean checkAnswer = services.guardrails().checksAnswers(deployment, routed.guardrails());
        if (call().state.http10() || checkAnswer) {
            // An HTTP/1.0 caller cannot take a chunked stream, and an answer a guardrail must
            // see cannot be sent before it is whole: the events go out whole, at the end.
            return exchange.body().transform(body -> {
                if (body.failed()) {
                    return unanswered(exchange, body.cause());
                }
                Buffer fed;
                Buffer rest;
                try {
                    fed = translator.feed(body.result());
                    rest = translator.end();
                } catch (StreamFailure failure) {
                    return failed(failure.failure());
                }
                Buffer events = Buffer.buffer(fed.length() + rest.length()).appendBuffer(fed).appendBuffer(rest);
                if (!StreamEndMark.in(events)) {
                    return unanswered(exchange, new UpstreamFailure(UpstreamFailure.Kind.BROKEN, StreamRelay.NO_END_MARK));
                }
                TokenUsage usage = routed.charge().streamUsage(deployment, events, translator.usage());
                if (checkAnswer) {
                    Optional<GuardrailRefusal> refused = services.guardrails().checkAnswer(deployment,
                            AnswerText.ofEvents(events.toString(StandardCharsets.UTF_8)), routed.guardrails());
                    if (refused.isPresent()) {
                        call().events.answerRefused(plan.group().name(), deployment, usage);
                        return failed(GuardrailFailures.of(refused.get()));
                    }
                }
                // Written for the caller only once it may have it: what its entry API keeps of it is then the served answer.
                Buffer callerEvents;
                try {
                    StreamEncoding encoding = routed.answers().stream(provider.relaysStream(deployment, routed.requestFor(plan)));
                    callerEvents = encoding.feed(body.result(), fed).appendBuffer(encoding.end(rest));
                } catch (IllegalArgumentException untranslatable) {
                    return failed(untranslatable(untranslatable));
                }
                return Future.succeededFuture(AttemptResult.served(new Answer.Whole(exchange.status(), callerEvents,
                        "text/event-stream", exchange.headers(), usage)));
            });
        }
        long waitStarted = services.nanoTime().getAsLong();
        StreamTally tally = new StreamTally(routed.charge().keepsStreamText(deployment));
        StreamEncoding encoding = cached.storing(routed.resolved(), plan.group().name(),
                routed.answers().stream(provider.relaysStream(deployment, routed.requestFor(plan))), exchange.status(),
                () -> routed.charge().streamUsage(deployment, tally));
        StreamRelay relay = new StreamRelay(call().response, exchange, describe(plan),
                new StreamRelay.Timing(plan.deadline(), attemptStarted, services.nanoTime()),
                new StreamRelay.Hooks() {
                    @Override
                    public void beforeHead() {
                        long now = services.nanoTime().getAsLong();
                        // A stream's tokens are not known until it ends; its prompt is what it takes from tpm now.
                        services.signals().served(deployment, routed.facts().promptTokens(),
                                Duration.ofNanos(now - attemptStarted), 0, true);
                        call().events.upstreamWaited(now - waitStarted);
                        call().events.streamCommitted(plan);
                        services.answers().streamHead(routed, deployment, exchange.headers());
                    }

                    @Override
                    public void beforeEnd(StreamTally tally) {
                        // A stream cut by the gateway's stop is logged as cut, not as the 200 its head said.
                        services.answers().streamEnd(routed, plan.group().name(), deployment,
                                call().state.cut() ? Drain.cut().status() : exchange.status(), tally);
                    }
                },
                new StreamRelay.Events(translator, tally, encoding));
        relay.finished().onSuccess(end -> {
            relay.cutBy().ifPresent(cut -> services.events().streamCut(call().callId, plan.group().name(), deployment.id(),
                    cut.getMessage()));
            if (end == StreamRelay.StreamOutcome.CLIENT_GONE) {
                services.answers().streamEnd(routed, plan.group().name(), deployment, CallEnd.CLIENT_CLOSED, relay.tally());
            }
        });
        call().state.relaying(relay);
        try {
            return relay.start().transform(committed -> {
                if (committed.succeeded()) {
                    return Future.succeededFuture(AttemptResult.served(new Answer.Streaming(relay)));
                }
                call().state.relaying(null);
                if (committed.cause() instanceof StreamFailure failure) {
                    return failed(failure.failure());
                }
                return unanswered(exchange, committed.cause());
            });
        } catch (RuntimeException e) {
            exchange.cancel();
            throw e;
        }
    }

    private Future<AttemptResult<Answer>> whole(AttemptPlan plan, Provider provider, UpstreamExchange exchange, long opened) {
        int status = exchange.status();
        return exchange.body().transform(read -> {
            if (read.failed()) {
                return unanswered(exchange, read.cause());
            }
            Optional<OpenAiShape.ShapedAnswer> shaped;
            try {
                shaped = provider.normaliseSuccess(routed.requestFor(plan), read.result());
            } catch (StreamFailure refusal) {
                // A vendor that refuses with a 2xx (Gemini's blocked prompt) fails the attempt as classified.
                return failed(refusal.failure());
            }
            if (shaped.isEmpty()) {
                return failed(Failure.of(FailureClass.SERVER, "answered " + status + " with a body that is not a JSON object"));
            }
            OpenAiShape.ShapedAnswer answer = shaped.get();
            call().events.deploymentAnswered(plan.deployment(), () -> answer.tree().path("model").asText(""));
            TokenUsage usage = routed.charge().usage(plan.deployment(), TokenUsage.of(answer.usage()),
                    () -> AnswerText.ofBody(answer.tree()));
            if (services.guardrails().checksAnswers(plan.deployment(), routed.guardrails())) {
                Optional<GuardrailRefusal> refused = services.guardrails().checkAnswer(plan.deployment(),
                        AnswerText.ofBody(answer.tree()), routed.guardrails());
                if (refused.isPresent()) {
                    // The deployment answered and will bill for it: the refused answer is charged.
                    call().events.answerRefused(plan.group().name(), plan.deployment(), usage);
                    return failed(GuardrailFailures.of(refused.get()));
                }
            }
            Buffer callerBody;
            try {
                callerBody = routed.answers().whole(new AnswerEncoding.WholeAnswer(read.result(), answer.body(), answer::tree,
                        provider.passesThrough(plan.deployment(), routed.requestFor(plan))));
            } catch (IllegalArgumentException untranslatable) {
                return failed(untranslatable(untranslatable));
            }
            long tokens = answer.totalTokens() > 0 ? answer.totalTokens() : routed.facts().promptTokens();
            services.signals().served(plan.deployment(), tokens, Duration.ofNanos(services.nanoTime().getAsLong() - opened),
                    (int) Math.min(Integer.MAX_VALUE, answer.completionTokens()), false);
            return Future.succeededFuture(AttemptResult.served(
                    new Answer.Whole(status, callerBody, "application/json", exchange.headers(), usage)));
        });
    }


    /** The attempt got no (whole) HTTP answer: refused, reset, cut, timed out or abandoned. */
    private static Future<AttemptResult<Answer>> unanswered(UpstreamExchange exchange, Throwable cause) {
        return failed(FailureClassifier.fromTransport(exchange.failure(cause)));
    }

    /**
     * The deployment answered with what the caller's entry API has no place for (say, an image
     * in the answer of a caller of Anthropic's API): another deployment may answer otherwise.
     */
    private static Failure untranslatable(IllegalArgumentException cause) {
        return Failure.of(FailureClass.SERVER, "answered with what the caller's API cannot carry: " + cause.getMessage());
    }

    private static Future<AttemptResult<Answer>> failed(Failure failure) {
        return Future.succeededFuture(AttemptResult.failed(failure));
    }

    /** The call as it was opened: its request, response, events and state. */
    private ModelCall call() {
        return routed.call();
    }

    static String describe(AttemptPlan plan) {
        return "deployment '" + plan.deployment().id() + "' of model group '" + plan.group().name() + "'";
    }
}
