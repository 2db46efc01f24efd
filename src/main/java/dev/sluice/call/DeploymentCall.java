package dev.sluice.call;

import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.call.guardrail.GuardrailRefusal;
import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.http.Hops;
import dev.sluice.model.AnswerText;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.AttemptResult;
import dev.sluice.router.Attempter;
import dev.sluice.router.strategy.SignalRecorder;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.entry.AnswerEncoding;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.upstream.UpstreamClient;
import dev.sluice.vendors.upstream.UpstreamExchange;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One request's attempts at deployments: checks the deployment's guardrails on the prompt,
 * lays out the vendor's request and its credentials, calls the deployment, classifies what
 * went wrong, and reads a whole answer (checking its guardrails); a stream is answered by
 * {@link StreamedAnswers}, a call that is not chat-like by {@link UnitBilledAnswers}. Everything the router needs to decide
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
            return AttemptEnds.failed(unset.get());
        }
        Provider provider = services.providers().forDeployment(deployment);
        Optional<Failure> unserved = CallTypeRefusals.of(provider, deployment, routed.request().operation());
        if (unserved.isPresent()) {
            return AttemptEnds.failed(unserved.get());
        }
        Optional<String> untranslatable = provider.passesThrough(deployment, routed.requestFor(plan)) ? Optional.empty()
                : routed.answers().refusesTranslation();
        if (untranslatable.isPresent()) {
            return AttemptEnds.failed(TranslationRefusals.of(new IllegalArgumentException(untranslatable.get())));
        }
        UpstreamRequest laidOut;
        try {
            laidOut = provider.request(deployment, routed.requestFor(plan));
        } catch (IllegalArgumentException refused) {
            // The vendor has no place for what the caller sent: a 400 naming it, as LiteLLM answers.
            return AttemptEnds.failed(TranslationRefusals.of(refused));
        }
        call().events.attemptLaidOut(laidOut.droppedParams());
        long authorizing = services.nanoTime().getAsLong();
        return provider.authorize(deployment, laidOut).transform(authorized -> {
            call().events.upstreamWaited(services.nanoTime().getAsLong() - authorizing);
            if (authorized.failed()) {
                return AttemptEnds.failed(CredentialFailures.of(authorized.cause()));
            }
            if (call().state.stopped()) {
                return AttemptEnds.failed(Failure.of(FailureClass.TRANSPORT, "the caller left or the gateway stopped"));
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
                return AttemptEnds.unanswered(exchange, new IllegalStateException("the caller left or the gateway stopped"));
            }
            if (answered.failed()) {
                return AttemptEnds.unanswered(exchange, answered.cause());
            }
            int status = exchange.status();
            if (status < 200 || status >= 300) {
                return exchange.bodyUpTo(Failure.MAX_BODY_BYTES).transform(body -> {
                    if (body.failed()) {
                        return AttemptEnds.unanswered(exchange, body.cause());
                    }
                    return AttemptEnds.failed(provider.classify(status, body.result(), exchange.headers(), services.clock().instant()));
                });
            }
            if (!routed.request().operation().everyVendorServes()) {
                return new UnitBilledAnswers(services.signals(), services.nanoTime()).whole(routed, plan, provider, exchange, opened);
            }
            if (routed.requestFor(plan).stream() && provider.streams(exchange.headers())) {
                return new StreamedAnswers(services, routed, cached).answer(plan, provider, exchange, opened);
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

    private Future<AttemptResult<Answer>> whole(AttemptPlan plan, Provider provider, UpstreamExchange exchange, long opened) {
        int status = exchange.status();
        return exchange.body().transform(read -> {
            if (read.failed()) {
                return AttemptEnds.unanswered(exchange, read.cause());
            }
            Optional<OpenAiShape.ShapedAnswer> shaped;
            try {
                shaped = provider.normaliseSuccess(routed.requestFor(plan), read.result());
            } catch (StreamFailure refusal) {
                // A vendor that refuses with a 2xx (Gemini's blocked prompt) fails the attempt as classified.
                return AttemptEnds.failed(refusal.failure());
            }
            if (shaped.isEmpty()) {
                return AttemptEnds.failed(Failure.of(FailureClass.SERVER, "answered " + status + " with a body that is not a JSON object"));
            }
            OpenAiShape.ShapedAnswer answer = shaped.get();
            call().events.deploymentAnswered(plan.deployment(), () -> answer.tree().path("model").asText(""));
            TokenUsage usage = routed.tokens().usage(plan.deployment(), TokenUsage.of(answer.usage()),
                    () -> AnswerText.ofBody(answer.tree()));
            if (services.guardrails().checksAnswers(plan.deployment(), routed.guardrails())) {
                Optional<GuardrailRefusal> refused = services.guardrails().checkAnswer(plan.deployment(),
                        AnswerText.ofBody(answer.tree()), routed.guardrails());
                if (refused.isPresent()) {
                    // The deployment answered and will bill for it: the refused answer is charged.
                    call().events.answerRefused(plan.group().name(), plan.deployment(), usage);
                    return AttemptEnds.failed(GuardrailFailures.of(refused.get()));
                }
            }
            Buffer callerBody;
            try {
                callerBody = routed.answers().whole(new AnswerEncoding.WholeAnswer(read.result(), answer.body(), answer::tree,
                        provider.passesThrough(plan.deployment(), routed.requestFor(plan))));
            } catch (IllegalArgumentException untranslatable) {
                return AttemptEnds.failed(AttemptEnds.untranslatable(untranslatable));
            }
            long tokens = answer.totalTokens() > 0 ? answer.totalTokens() : routed.facts().promptTokens();
            services.signals().served(plan.deployment(), tokens, Duration.ofNanos(services.nanoTime().getAsLong() - opened),
                    (int) Math.min(Integer.MAX_VALUE, answer.completionTokens()), false);
            return Future.succeededFuture(AttemptResult.served(
                    new Answer.Whole(status, callerBody, "application/json", exchange.headers(), usage)));
        });
    }


    /** The call as it was opened: its request, response, events and state. */
    private ModelCall call() {
        return routed.call();
    }

    static String describe(AttemptPlan plan) {
        return "deployment '" + plan.deployment().id() + "' of model group '" + plan.group().name() + "'";
    }
}
