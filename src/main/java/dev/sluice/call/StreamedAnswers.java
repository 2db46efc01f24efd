package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.call.guardrail.GuardrailRefusal;
import dev.sluice.config.Deployment;
import dev.sluice.failure.UpstreamFailure;
import dev.sluice.http.Drain;
import dev.sluice.model.AnswerText;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.AttemptResult;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.vendors.upstream.UpstreamExchange;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * The 2xx stream of one attempt. Relayed as it comes: the caller is committed to at its first
 * event (the routed head goes out then) and the stream's cost goes in the trailer at its end.
 * Read whole and written at once instead for an HTTP/1.0 caller, which cannot take a chunked
 * stream, and when a guardrail must read the answer before the caller may have it.
 */
record StreamedAnswers(AttemptServices services, RoutedCall routed, CachedCalls cached) {
    /** The stream {@code exchange} opened for {@code plan}, whose attempt began at {@code attemptStarted}. */
    Future<AttemptResult<Answer>> answer(AttemptPlan plan, Provider provider, UpstreamExchange exchange, long attemptStarted) {
        Deployment deployment = plan.deployment();
        StreamTranslator translator = routed.call().events.streamStarted(provider.streamTranslator(deployment, routed.requestFor(plan)));
        boolean checkAnswer = services.guardrails().checksAnswers(deployment, routed.guardrails());
        if (routed.call().state.http10() || checkAnswer) {
            // An HTTP/1.0 caller cannot take a chunked stream, and an answer a guardrail must
            // see cannot be sent before it is whole: the events go out whole, at the end.
            return exchange.body().transform(body -> {
                if (body.failed()) {
                    return AttemptEnds.unanswered(exchange, body.cause());
                }
                Buffer fed;
                Buffer rest;
                try {
                    fed = translator.feed(body.result());
                    rest = translator.end();
                } catch (StreamFailure failure) {
                    return AttemptEnds.failed(failure.failure());
                }
                Buffer events = Buffer.buffer(fed.length() + rest.length()).appendBuffer(fed).appendBuffer(rest);
                if (!StreamEndMark.in(events)) {
                    return AttemptEnds.unanswered(exchange, new UpstreamFailure(UpstreamFailure.Kind.BROKEN, StreamRelay.NO_END_MARK));
                }
                StreamTally whole = routed.tokens().wholeStream(deployment, events, translator.usage());
                TokenUsage usage = routed.tokens().streamUsage(deployment, whole);
                routed.call().events.deploymentAnswered(deployment, whole::answeredModel);
                if (checkAnswer) {
                    Optional<GuardrailRefusal> refused = services.guardrails().checkAnswer(deployment,
                            AnswerText.ofEvents(events.toString(StandardCharsets.UTF_8)), routed.guardrails());
                    if (refused.isPresent()) {
                        routed.call().events.answerRefused(plan.group().name(), deployment, usage);
                        return AttemptEnds.failed(GuardrailFailures.of(refused.get()));
                    }
                }
                // Written for the caller only once it may have it: what its entry API keeps of it is then the served answer.
                Buffer callerEvents;
                try {
                    StreamEncoding encoding = routed.answers().stream(provider.relaysStream(deployment, routed.requestFor(plan)));
                    callerEvents = encoding.feed(body.result(), fed).appendBuffer(encoding.end(rest));
                } catch (IllegalArgumentException untranslatable) {
                    return AttemptEnds.failed(AttemptEnds.untranslatable(untranslatable));
                }
                return Future.succeededFuture(AttemptResult.served(new Answer.Whole(exchange.status(), callerEvents,
                        "text/event-stream", exchange.headers(), usage)));
            });
        }
        long waitStarted = services.nanoTime().getAsLong();
        StreamTally tally = new StreamTally(routed.tokens().keepsStreamText(deployment));
        StreamEncoding encoding = cached.storing(routed.resolved(), plan.group().name(),
                routed.answers().stream(provider.relaysStream(deployment, routed.requestFor(plan))), exchange.status(),
                () -> routed.tokens().streamUsage(deployment, tally));
        StreamRelay relay = new StreamRelay(routed.call().response, exchange, DeploymentCall.describe(plan),
                new StreamRelay.Timing(plan.deadline(), attemptStarted, services.nanoTime()),
                new StreamRelay.Hooks() {
                    @Override
                    public void beforeHead() {
                        long now = services.nanoTime().getAsLong();
                        // A stream's tokens are not known until it ends; its prompt is what it takes from tpm now.
                        services.signals().served(deployment, routed.facts().promptTokens(),
                                Duration.ofNanos(now - attemptStarted), 0, true);
                        routed.call().events.upstreamWaited(now - waitStarted);
                        routed.call().events.streamCommitted(plan);
                        services.answers().streamHead(routed, deployment, exchange.headers());
                    }

                    @Override
                    public void beforeEnd(StreamTally tally) {
                        // A stream cut by the gateway's stop is logged as cut, not as the 200 its head said.
                        services.answers().streamEnd(routed, plan.group().name(), deployment,
                                routed.call().state.cut() ? Drain.cut().status() : exchange.status(), tally);
                    }
                },
                new StreamRelay.Events(translator, tally, encoding));
        relay.finished().onSuccess(end -> {
            relay.cutBy().ifPresent(cut -> services.events().streamCut(routed.call().callId, plan.group().name(), deployment.id(),
                    cut.getMessage()));
            if (end == StreamRelay.StreamOutcome.CLIENT_GONE) {
                services.answers().streamEnd(routed, plan.group().name(), deployment, CallEnd.CLIENT_CLOSED, relay.tally());
            }
        });
        routed.call().state.relaying(relay);
        try {
            return relay.start().transform(committed -> {
                if (committed.succeeded()) {
                    return Future.succeededFuture(AttemptResult.served(new Answer.Streaming(relay)));
                }
                routed.call().state.relaying(null);
                if (committed.cause() instanceof StreamFailure failure) {
                    return AttemptEnds.failed(failure.failure());
                }
                return AttemptEnds.unanswered(exchange, committed.cause());
            });
        } catch (RuntimeException e) {
            exchange.cancel();
            throw e;
        }
    }
}
