package dev.sluice.ops.health;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.ModelMode;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.failure.UpstreamFailure;
import dev.sluice.model.Operation;
import dev.sluice.vendors.ForwardedBody;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.upstream.UpstreamClient;
import dev.sluice.vendors.upstream.UpstreamExchange;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;

/**
 * Probes one deployment with the smallest real call of its kind, laid out by its provider
 * adapter and sent by the gateway's own upstream client, as a routed call would be: a chat
 * completion of one short user message and {@code max_tokens: 1}, a completion of one word and
 * {@code max_tokens: 1}, or the embedding of one word ({@code model_info.mode}). Any 2xx with
 * a JSON object passes; everything else fails with a short reason that never holds the key
 * the probe was sent with.
 */
final class HealthProbe {
    /** What every probe asks; short, so a probe costs a few tokens at most. */
    static final String PROMPT = "ping";
    /** The longest error sentence shown; an upstream's page of HTML is cut to this. */
    static final int MAX_ERROR_CHARS = 300;

    private final Providers providers;
    private final Function<Deployment, Duration> attemptDeadline;
    private final Duration longest;
    private final Clock clock;

    /**
     * @param attemptDeadline the deployment's own deadline for one attempt
     * @param longest         {@code health_check_timeout}: no probe waits longer
     */
    HealthProbe(Providers providers, Function<Deployment, Duration> attemptDeadline, Duration longest, Clock clock) {
        this.providers = providers;
        this.attemptDeadline = attemptDeadline;
        this.longest = longest;
        this.clock = clock;
    }

    /** Probes {@code deployment} on the calling event loop; the future never fails. */
    Future<ProbeResult> probe(Deployment deployment, UpstreamClient upstreams) {
        if (!deployment.params().endpoint().unsetVariables().isEmpty()) {
            return Future.succeededFuture(ProbeResult.uncallable(deployment, "cannot be called: environment variable(s) "
                    + String.join(", ", deployment.params().endpoint().unsetVariables()) + " not set"));
        }
        Provider provider;
        UpstreamRequest laidOut;
        try {
            provider = providers.forDeployment(deployment);
            laidOut = provider.request(deployment, endpoint(deployment), body(deployment));
        } catch (RuntimeException e) {
            return Future.succeededFuture(ProbeResult.uncallable(deployment, "cannot be called: " + e.getMessage()));
        }
        return provider.authorize(deployment, laidOut).transform(authorized -> authorized.failed()
                ? Future.succeededFuture(ProbeResult.failed(deployment,
                        Failure.of(FailureClass.AUTH, "could not get credentials: " + authorized.cause().getMessage()),
                        "could not get credentials: " + authorized.cause().getMessage()))
                : send(deployment, provider, authorized.result(), upstreams));
    }

    private Future<ProbeResult> send(Deployment deployment, Provider provider, UpstreamRequest request, UpstreamClient upstreams) {
        Duration deadline = deadline(deployment);
        UpstreamExchange exchange;
        try {
            exchange = upstreams.open(request, deadline);
        } catch (RuntimeException e) {
            return Future.succeededFuture(ProbeResult.uncallable(deployment, "cannot be called: " + e.getMessage()));
        }
        return exchange.answered()
                .transform(answered -> answered.failed()
                        ? Future.succeededFuture(unanswered(deployment, exchange.failure(answered.cause()), deadline))
                        : answered(deployment, provider, request, exchange, deadline))
                .otherwise(t -> ProbeResult.uncallable(deployment, shown("probe failed: " + t.getMessage(), request)));
    }

    private Future<ProbeResult> answered(Deployment deployment, Provider provider, UpstreamRequest request,
            UpstreamExchange exchange, Duration deadline) {
        int status = exchange.status();
        boolean served = status >= 200 && status < 300;
        return (served ? exchange.body() : exchange.bodyUpTo(Failure.MAX_BODY_BYTES)).map(body -> {
            if (served) {
                if (provider.normaliseSuccess(body).isPresent()) {
                    return ProbeResult.healthy(deployment);
                }
                String cause = "answered " + status + " with a body that is not a JSON object";
                return ProbeResult.failed(deployment, new Failure(FailureClass.SERVER, 0, Buffer.buffer(), java.util.Optional.empty(),
                        cause), cause);
            }
            Failure failure = FailureClassifier.fromAnswer(status, body, exchange.headers(), clock.instant());
            String message = provider.normaliseError(status, body).path("error").path("message").asText("").strip();
            return ProbeResult.failed(deployment, failure, shown(message.isEmpty() ? "HTTP " + status : "HTTP " + status + ": " + message,
                    request));
        }).otherwise(t -> unanswered(deployment, exchange.failure(t), deadline));
    }

    private static ProbeResult unanswered(Deployment deployment, UpstreamFailure cause, Duration deadline) {
        String error = cause.kind() == UpstreamFailure.Kind.TIMEOUT ? "timed out after " + seconds(deadline) + " s" : cause.getMessage();
        return ProbeResult.failed(deployment, FailureClassifier.fromTransport(cause), error);
    }

    /** The deployment's attempt deadline, never more than {@code health_check_timeout}. */
    Duration deadline(Deployment deployment) {
        Duration own = attemptDeadline.apply(deployment);
        return own.compareTo(longest) < 0 ? own : longest;
    }

    /** Whether a probe can ask {@code deployment} something cheap that it serves. */
    static boolean probes(Deployment deployment) {
        return switch (deployment.info().mode().orElse(ModelMode.CHAT)) {
            case IMAGE_GENERATION, AUDIO_SPEECH, AUDIO_TRANSCRIPTION -> false;
            case CHAT, COMPLETION, EMBEDDING, MODERATION, RERANK -> true;
        };
    }

    static Operation endpoint(Deployment deployment) {
        return switch (deployment.info().mode().orElse(ModelMode.CHAT)) {
            case COMPLETION -> Operation.COMPLETIONS;
            case EMBEDDING -> Operation.EMBEDDINGS;
            case MODERATION -> Operation.MODERATIONS;
            case RERANK -> Operation.RERANK;
            // Never probed (see probes); named so that the switch stays exhaustive.
            case CHAT, IMAGE_GENERATION, AUDIO_SPEECH, AUDIO_TRANSCRIPTION -> Operation.CHAT_COMPLETIONS;
        };
    }

    private static ObjectNode body(Deployment deployment) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        switch (endpoint(deployment)) {
            case CHAT_COMPLETIONS -> {
                body.putArray("messages").addObject().put("role", "user").put("content", PROMPT);
                body.put("max_tokens", 1);
            }
            case COMPLETIONS -> body.put("prompt", PROMPT).put("max_tokens", 1);
            case EMBEDDINGS, MODERATIONS -> body.put("input", PROMPT);
            case RERANK -> {
                body.put("query", PROMPT);
                body.putArray("documents").add(PROMPT);
            }
            default -> throw new IllegalStateException("no probe for " + endpoint(deployment));
        }
        return ForwardedBody.of(body, deployment.params().providerModel());
    }

    /**
     * The error as the answer shows it: cut to {@link #MAX_ERROR_CHARS}, and with every header
     * value the probe sent (its key, whether from the config or the provider's variable) masked,
     * as an upstream may quote the key it refused.
     */
    private static String shown(String error, UpstreamRequest request) {
        java.util.List<String> sent = new java.util.ArrayList<>();
        for (String value : request.headers().values()) {
            sent.add(value.regionMatches(true, 0, "Bearer ", 0, 7) ? value.substring(7).strip() : value.strip());
        }
        // Its echoes too: upper-cased, encoded, cut short (dev.sluice.ops.logging.SecretEchoes).
        String shown = dev.sluice.ops.logging.SecretEchoes.of(sent).mask(error);
        return shown.length() <= MAX_ERROR_CHARS ? shown : shown.substring(0, MAX_ERROR_CHARS - 1) + "…";
    }

    /** {@code 5}, {@code 0.5}: seconds as the config writes them. */
    private static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis()).movePointLeft(3).stripTrailingZeros().toPlainString();
    }
}
