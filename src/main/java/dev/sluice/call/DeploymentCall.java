package dev.sluice.call;

import dev.sluice.http.CallIds;
import dev.sluice.server.Gateway;
import dev.sluice.spend.TokenUsage;
import dev.sluice.access.CallEnd;
import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.guardrail.AnswerText;
import dev.sluice.guardrail.GuardrailRefusal;
import dev.sluice.json.Json;
import dev.sluice.provider.ForwardedBody;
import dev.sluice.provider.OpenAiShape;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.router.strategy.SignalRecorder;
import dev.sluice.provider.Provider;
import dev.sluice.provider.UpstreamRequest;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.AttemptResult;
import dev.sluice.router.Attempter;
import dev.sluice.upstream.UpstreamClient;
import dev.sluice.upstream.UpstreamExchange;
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
final class DeploymentCall implements Attempter<Answer> {
    private final Gateway gateway;
    private final UpstreamClient upstreams;
    private final CallRequest request;
    private final CallState call;
    private final HttpServerResponse response;
    private final RoutedHeaders headers;
    /** The guardrails the caller named in the body's {@code guardrails}, checked to exist. */
    private final List<String> requestedGuardrails;
    private final RequestFacts facts;
    private final CallCharge charge;
    /** The upstream headers of each failed answer, so the final error can pass Retry-After and the rest on. */
    private final Map<Failure, MultiMap> failureHeaders = new IdentityHashMap<>();

    DeploymentCall(Gateway gateway, UpstreamClient upstreams, CallRequest request, CallState call,
            HttpServerResponse response, RoutedHeaders headers, List<String> requestedGuardrails, RequestFacts facts,
            CallCharge charge) {
        this.gateway = gateway;
        this.upstreams = upstreams;
        this.request = request;
        this.call = call;
        this.response = response;
        this.headers = headers;
        this.requestedGuardrails = requestedGuardrails;
        this.facts = facts;
        this.charge = charge;
    }

    /** The upstream headers that came with a failed answer, if it was an HTTP answer. */
    Optional<MultiMap> headersOf(Failure failure) {
        return Optional.ofNullable(failureHeaders.get(failure));
    }

    @Override
    public Future<AttemptResult<Answer>> attempt(AttemptPlan plan) {
        Deployment deployment = plan.deployment();
        Optional<GuardrailRefusal> refused = gateway.guardrails().checkPrompt(deployment, request.body(), requestedGuardrails);
        if (refused.isPresent()) {
            return Future.succeededFuture(AttemptResult.failed(GuardrailFailures.of(refused.get())));
        }
        // The deployment has one more call open until this attempt is over, a stream until it ends.
        SignalRecorder signals = gateway.router().signals();
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
        Provider provider = gateway.providers().forDeployment(deployment);
        UpstreamRequest upstreamRequest = traced(provider.request(deployment, request.endpoint(),
                ForwardedBody.of(request.body(), deployment.params().providerModel())));
        long opened = gateway.nanoTime().getAsLong();
        UpstreamExchange exchange = upstreams.open(upstreamRequest, deadline(plan));
        call.opened(exchange);
        return exchange.answered().transform(answered -> {
            headers.upstreamTook(gateway.nanoTime().getAsLong() - opened);
            if (call.clientGone()) {
                exchange.cancel();
                return unanswered(exchange, new IllegalStateException("the caller left"));
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
                    Failure failure = FailureClassifier.fromAnswer(status, body.result(), exchange.headers(), gateway.clock().instant());
                    failureHeaders.put(failure, exchange.headers());
                    return failed(failure);
                });
            }
            if (request.stream() && isEventStream(exchange)) {
                return stream(plan, exchange, opened);
            }
            return whole(plan, provider, exchange, opened);
        });
    }

    /** With tracing on, the request carries the attempt's trace context, so the upstream's spans join the call's trace. */
    private UpstreamRequest traced(UpstreamRequest upstreamRequest) {
        Map<String, String> trace = gateway.tracing().map(t -> t.upstreamHeaders(response.headers().get(CallIds.HEADER)))
                .orElse(Map.of());
        if (trace.isEmpty()) {
            return upstreamRequest;
        }
        Map<String, String> headers = new LinkedHashMap<>(upstreamRequest.headers());
        headers.putAll(trace);
        return new UpstreamRequest(upstreamRequest.url(), headers, upstreamRequest.body());
    }

    /**
     * The attempt's deadline for an answer: for a stream with a {@code stream_timeout}, that
     * (LiteLLM's timeout for streaming calls), else the router's plan; never more than what is
     * left of the request's total deadline.
     */
    private Duration deadline(AttemptPlan plan) {
        if (!request.stream()) {
            return plan.deadline();
        }
        Optional<Duration> streamTimeout = plan.deployment().params().streamTimeout().or(() -> plan.settings().streamTimeout());
        if (streamTimeout.isEmpty()) {
            return plan.deadline();
        }
        return streamTimeout.get().compareTo(plan.totalLeft()) < 0 ? streamTimeout.get() : plan.totalLeft();
    }

    private Future<AttemptResult<Answer>> stream(AttemptPlan plan, UpstreamExchange exchange, long attemptStarted) {
        Deployment deployment = plan.deployment();
        boolean checkAnswer = gateway.guardrails().checksAnswers(deployment, requestedGuardrails);
        if (call.http10() || checkAnswer) {
            // An HTTP/1.0 caller cannot take a chunked stream, and an answer a guardrail must
            // see cannot be sent before it is whole: the events go out whole, at the end.
            return exchange.body().transform(body -> {
                if (body.failed()) {
                    return unanswered(exchange, body.cause());
                }
                TokenUsage usage = charge.streamUsage(deployment, body.result());
                if (checkAnswer) {
                    Optional<GuardrailRefusal> refused = gateway.guardrails().checkAnswer(deployment,
                            AnswerText.ofEvents(body.result().toString(StandardCharsets.UTF_8)), requestedGuardrails);
                    if (refused.isPresent()) {
                        charge.refusedAnswer(plan.group().name(), deployment, usage);
                        return failed(GuardrailFailures.of(refused.get()));
                    }
                }
                return Future.succeededFuture(AttemptResult.served(new Answer.Whole(exchange.status(), body.result(),
                        exchange.headers().get("Content-Type"), exchange.headers(), usage)));
            });
        }
        long waitStarted = gateway.nanoTime().getAsLong();
        StreamRelay relay = new StreamRelay(response, exchange,
                Deadlines.betweenChunks(plan.settings(), deployment), describe(plan),
                () -> {
                    long now = gateway.nanoTime().getAsLong();
                    // A stream's tokens are not known until it ends; its prompt is what it takes from tpm now.
                    gateway.router().signals().served(deployment, facts.promptTokens(), Duration.ofNanos(now - attemptStarted), 0, true);
                    headers.upstreamTook(now - waitStarted);
                    headers.served(plan);
                    headers.apply(response);
                    charge.putLimitHeaders(response);
                    charge.streamHead(response);
                },
                tally -> charge.streamEnding(response, plan.group().name(), deployment, exchange.status(), tally),
                new StreamTally(charge.keepsStreamText(deployment)),
                gateway.nanoTime(), attemptStarted + plan.totalLeft().toNanos());
        relay.finished().onSuccess(end -> {
            relay.cutBy().ifPresent(cut -> gateway.router().events().streamCut(response.headers().get(CallIds.HEADER),
                    plan.group().name(), deployment.id(), cut.getMessage()));
            if (end == StreamRelay.StreamOutcome.CLIENT_GONE) {
                charge.streamEnding(response, plan.group().name(), deployment, CallEnd.CLIENT_CLOSED, relay.tally());
            }
        });
        call.relaying(relay);
        try {
            return relay.start().transform(committed -> {
                if (committed.succeeded()) {
                    return Future.succeededFuture(AttemptResult.served(new Answer.Streaming(relay)));
                }
                call.relaying(null);
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
            Optional<OpenAiShape.ShapedAnswer> shaped = provider.normaliseSuccess(read.result());
            if (shaped.isEmpty()) {
                return failed(new Failure(FailureClass.SERVER, 0, Buffer.buffer(), Optional.empty(),
                        "answered " + status + " with a body that is not a JSON object"));
            }
            OpenAiShape.ShapedAnswer answer = shaped.get();
            TokenUsage usage = charge.usage(plan.deployment(), TokenUsage.of(answer.tree().get("usage")),
                    () -> AnswerText.ofBody(answer.tree()));
            if (gateway.guardrails().checksAnswers(plan.deployment(), requestedGuardrails)) {
                Optional<GuardrailRefusal> refused = gateway.guardrails().checkAnswer(plan.deployment(),
                        AnswerText.ofBody(answer.tree()), requestedGuardrails);
                if (refused.isPresent()) {
                    // The deployment answered and will bill for it: the refused answer is charged.
                    charge.refusedAnswer(plan.group().name(), plan.deployment(), usage);
                    return failed(GuardrailFailures.of(refused.get()));
                }
            }
            long tokens = answer.totalTokens() > 0 ? answer.totalTokens() : facts.promptTokens();
            gateway.router().signals().served(plan.deployment(), tokens, Duration.ofNanos(gateway.nanoTime().getAsLong() - opened),
                    (int) Math.min(Integer.MAX_VALUE, answer.completionTokens()), false);
            return Future.succeededFuture(AttemptResult.served(
                    new Answer.Whole(status, answer.body(), "application/json", exchange.headers(), usage)));
        });
    }


    /** The attempt got no (whole) HTTP answer: refused, reset, cut, timed out or abandoned. */
    private static Future<AttemptResult<Answer>> unanswered(UpstreamExchange exchange, Throwable cause) {
        return failed(FailureClassifier.fromTransport(exchange.failure(cause)));
    }

    private static Future<AttemptResult<Answer>> failed(Failure failure) {
        return Future.succeededFuture(AttemptResult.failed(failure));
    }

    static String describe(AttemptPlan plan) {
        return "deployment '" + plan.deployment().id() + "' of model group '" + plan.group().name() + "'";
    }

    private static boolean isEventStream(UpstreamExchange exchange) {
        String type = exchange.headers().get("Content-Type");
        return type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17);
    }
}
