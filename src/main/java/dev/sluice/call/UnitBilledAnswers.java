package dev.sluice.call;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.spend.BilledUnits;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.AttemptResult;
import dev.sluice.router.strategy.SignalRecorder;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.upstream.UpstreamExchange;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The 2xx answer of a call that is not chat-like (images, speech, transcriptions,
 * moderations, rerank): relayed as the deployment wrote it, and billed by what it made
 * ({@link CallUnits}) besides any tokens its {@code usage} reports. JSON must be one JSON
 * object; audio and the plain-text formats of a transcription pass as they came, with the
 * upstream's {@code Content-Type}. Nothing here is a chat answer, so no answer guardrail
 * reads it and no tokens are counted that the answer did not report.
 *
 * @param signals told what each served answer took, for the routing strategies
 */
record UnitBilledAnswers(SignalRecorder signals, LongSupplier nanoTime) {
    private static final String JSON = "application/json";

    Future<AttemptResult<Answer>> whole(RoutedCall call, AttemptPlan plan, Provider provider, UpstreamExchange exchange,
            long opened) {
        // The attempt's own request: a fallback object may have changed n, size or input.
        ModelRequest request = call.requestFor(plan);
        Operation operation = request.operation();
        int status = exchange.status();
        return exchange.body().transform(read -> {
            if (read.failed()) {
                return AttemptEnds.failed(FailureClassifier.fromTransport(exchange.failure(read.cause())));
            }
            String type = exchange.headers().get("Content-Type");
            boolean json = type != null && type.regionMatches(true, 0, JSON, 0, JSON.length());
            Buffer body = read.result();
            TokenUsage usage = TokenUsage.NONE;
            ObjectNode tree = null;
            if (json || !operation.answersMedia()) {
                Optional<OpenAiShape.ShapedAnswer> shaped;
                try {
                    shaped = provider.normaliseSuccess(request, body);
                } catch (StreamFailure refusal) {
                    return AttemptEnds.failed(refusal.failure());
                }
                if (shaped.isEmpty()) {
                    return AttemptEnds.failed(Failure.of(FailureClass.SERVER, "answered " + status + " with a body that is not a JSON object"));
                }
                usage = TokenUsage.of(shaped.get().usage()).orElse(TokenUsage.NONE);
                tree = shaped.get().tree();
                body = shaped.get().body();
                type = JSON;
            }
            BilledUnits units = CallUnits.of(operation, request.body(), tree);
            signals.served(plan.deployment(), usage.promptTokens() + usage.completionTokens(),
                    Duration.ofNanos(nanoTime.getAsLong() - opened),
                    (int) Math.min(Integer.MAX_VALUE, usage.completionTokens()), false);
            return Future.succeededFuture(AttemptResult.served(new Answer.Whole(status, body,
                    type == null ? "application/octet-stream" : type, exchange.headers(), usage, units)));
        });
    }
}
