package dev.sluice.call;

import dev.sluice.http.Responses;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ApiError;
import dev.sluice.api.ErrorBodies;
import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.json.Json;
import dev.sluice.provider.Providers;
import dev.sluice.router.RouteOutcome;
import dev.sluice.router.RouteOutcome.GroupRun;
import dev.sluice.router.FallbackGate;
import dev.sluice.router.RouteOutcome.SkippedFallback;
import dev.sluice.router.RouteOutcome.Tried;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a caller is told when routing ends without an answer. An upstream's own error
 * passes through with its status and words, in OpenAI's shape, with one sentence added
 * saying what Sluice did about it. An attempt without an HTTP answer is named with its
 * cause: 408 for a timeout, 502 otherwise, and 503 "all backends unavailable" only when more
 * than one deployment was tried and every one was unavailable. A guardrail's refusal is a
 * 400 of its own.
 */
final class RoutedErrors {
    private final Providers providers;

    RoutedErrors(Providers providers) {
        this.providers = providers;
    }

    void answer(HttpServerResponse response, RouteOutcome<?> outcome, Failure failure, DeploymentCall calls) {
        String requested = outcome.groups().getFirst().group();
        Optional<Attempt> attempt = attemptThatFailed(outcome, failure);
        if (attempt.isEmpty()) {
            refusedBeforeCalling(response, outcome, failure, whatSluiceDid(requested, outcome));
            return;
        }
        Deployment failed = attempt.get().deployment();
        String where = "deployment '" + failed.id() + "' of model group '" + attempt.get().group() + "'";
        if (failure.kind() == FailureClass.GUARDRAIL) {
            Responses.error(response, new ApiError(400, "invalid_request_error", "Sluice: " + failure.cause()
                    + " The request was not sent to any other deployment or fallback.", null, "guardrail_refused"));
            return;
        }
        String what = whatSluiceDid(requested, outcome);
        if (failure.answered() && failure.status() >= 300 && failure.status() < 400) {
            String location = calls.headersOf(failure).map(h -> h.get("Location")).orElse(null);
            Responses.error(response, new ApiError(502, "server_error", "Sluice: " + where + " answered " + failure.status()
                    + " redirecting to " + location + "; check its api_base (Sluice does not follow redirects). " + what,
                    null, "upstream_redirect"));
            return;
        }
        if (failure.answered()) {
            ObjectNode body = providers.forDeployment(failed).normaliseError(failure.status(), failure.body());
            JsonNode error = body.get("error");
            if (error instanceof ObjectNode e) {
                JsonNode message = e.get("message");
                String upstream = withoutKey(message != null && message.isTextual() ? message.textValue() : "", failed);
                e.put("message", upstream.isEmpty() ? what : upstream + "\n\n" + what);
            }
            calls.headersOf(failure).ifPresent(h -> UpstreamHeaders.copy(h, response));
            Responses.json(response, failure.status(), Json.buffer(body));
            return;
        }
        List<Tried> unavailable = allUnavailable(outcome);
        if (unavailable != null && distinctDeployments(unavailable) > 1) {
            Responses.json(response, 503, Json.buffer(ErrorBodies.node("Sluice: all backends unavailable: "
                    + describeAll(outcome) + ". " + what, "server_error", null, "all_backends_unavailable")));
            return;
        }
        if (failure.kind() == FailureClass.TIMEOUT) {
            Responses.error(response, new ApiError(408, "timeout_error",
                    "Sluice: " + where + " timed out: " + failure.cause() + ". " + what, null, "upstream_timeout"));
            return;
        }
        String verb = failure.kind() == FailureClass.TRANSPORT ? " could not be reached: " : " failed: ";
        Responses.error(response, new ApiError(502, "server_error",
                "Sluice: " + where + verb + failure.cause() + ". " + what, null,
                failure.kind() == FailureClass.TRANSPORT ? "upstream_unreachable" : "invalid_upstream_response"));
    }

    /**
     * No deployment was called: the pre-call checks found none whose context window takes the
     * prompt (400, as a provider would say it), or the strategy found none with capacity left
     * this minute (429, with the wait until the next minute as {@code Retry-After}).
     */
    private static void refusedBeforeCalling(HttpServerResponse response, RouteOutcome<?> outcome, Failure failure, String what) {
        String cause = failure.cause().startsWith("Sluice: ") ? failure.cause().substring(8) : failure.cause();
        if (failure.kind() == FailureClass.CONTEXT_WINDOW) {
            Responses.error(response, new ApiError(400, "invalid_request_error", "Sluice: " + cause + " " + what, "messages",
                    "context_length_exceeded"));
            return;
        }
        failure.retryAfter().ifPresent(wait -> response.putHeader("Retry-After", Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000))));
        Responses.error(response, new ApiError(429, "rate_limit_error", "Sluice: " + cause + ". " + what, null, "no_capacity"));
    }

    /** The attempt that ended with {@code failure}, and its group; empty when no deployment was called. */
    private static Optional<Attempt> attemptThatFailed(RouteOutcome<?> outcome, Failure failure) {
        for (GroupRun run : outcome.groups()) {
            for (Tried t : run.attempts()) {
                if (t.failure() == failure) {
                    return Optional.of(new Attempt(run.group(), t.deployment()));
                }
            }
        }
        return Optional.empty();
    }

    private record Attempt(String group, Deployment deployment) {}

    /** The sentence that closes every routed error: which group failed and what became of its fallbacks. */
    static String whatSluiceDid(String requested, RouteOutcome<?> outcome) {
        StringBuilder s = new StringBuilder("Sluice: model group '").append(requested).append("' failed with the error above.");
        List<GroupRun> groups = outcome.groups();
        for (GroupRun run : groups.subList(1, groups.size())) {
            s.append(" Fallback to '").append(run.group()).append("' failed too");
            run.lastFailure().ifPresent(f -> s.append(" (").append(f.kind().wireName())
                    .append(f.answered() ? " " + f.status() : "").append(")"));
            s.append('.');
        }
        for (SkippedFallback skip : outcome.skipped()) {
            s.append(" Fallback to '").append(skip.group()).append("' was skipped").append(switch (skip.reason()) {
                case "already_tried" -> ": it was already tried for this request";
                case "unknown_group" -> ": there is no such model group";
                case "max_fallbacks" -> ": max_fallbacks was reached";
                case "deadline" -> ": the request's timeout ran out";
                case FallbackGate.OVER_BUDGET -> " because the caller is over budget for it";
                case FallbackGate.NO_ACCESS -> " because the caller has no access to it";
                default -> ": " + skip.reason();
            }).append('.');
        }
        if (groups.size() == 1) {
            s.append(" No fallback was attempted.");
        }
        return s.toString();
    }

    /** Every attempt of the request, or null if one of them failed for a reason other than unavailability. */
    private static List<Tried> allUnavailable(RouteOutcome<?> outcome) {
        List<Tried> all = new ArrayList<>();
        for (GroupRun run : outcome.groups()) {
            for (Tried t : run.attempts()) {
                if (t.failure() == null || !t.failure().kind().unavailable()) {
                    return null;
                }
                all.add(t);
            }
        }
        return all;
    }

    private static int distinctDeployments(List<Tried> attempts) {
        Set<String> ids = new LinkedHashSet<>();
        attempts.forEach(t -> ids.add(t.deployment().id()));
        return ids.size();
    }

    private static String describeAll(RouteOutcome<?> outcome) {
        List<String> parts = new ArrayList<>();
        for (GroupRun run : outcome.groups()) {
            for (Tried t : run.attempts()) {
                Failure f = t.failure();
                parts.add("deployment '" + t.deployment().id() + "' of model group '" + run.group() + "': "
                        + (f.answered() ? f.kind().wireName() + " " + f.status() : f.cause()));
            }
        }
        return String.join("; ", parts);
    }

    /**
     * An upstream's message with the deployment's own API key masked: providers quote the key
     * they were sent ("Incorrect API key provided: sk-..."), and the caller must never see the
     * gateway's key.
     */
    private static String withoutKey(String message, Deployment deployment) {
        return deployment.params().apiKey()
                .filter(key -> key.value().length() >= 4 && message.contains(key.value()))
                .map(key -> message.replace(key.value(), key.masked()))
                .orElse(message);
    }
}
